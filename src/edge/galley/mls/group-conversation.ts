import type { Context } from 'hono';
import { ConvType, decodeGroupId } from '../../../shared/mls/group-id.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { galleyErrors } from '../../api/errors/galley.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { loadMembershipOf, type Membership, requireMember } from '../conversations/access-check.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { unstoredOne2One } from './one2one-first-commit.js';
import { deps } from '../../api/deps.js';

/**
 * The conversation an MLS group id names, and the membership of the caller (or of `remote`, a
 * user of another backend acting through federation) of it (404 `no-conversation` otherwise): 400
 * `mls-protocol-error` for a group id that names none; another backend's group needs federation.
 * A subconversation's group names its conversation and the subconversation. An MLS 1:1 is not
 * stored before its first commit: `unstored`, with the caller as its only member.
 */
export async function groupConversation(
  c: Context<AppEnv>,
  groupId: Uint8Array | GroupTarget,
  remote?: QualifiedId,
): Promise<Membership & { id: { id: string; domain: string }; subconv: string | undefined; unstored: boolean }> {
  const { id, subconv, convType } = groupId instanceof Uint8Array ? groupTarget(c, groupId) : groupId;
  const first = subconv === undefined && convType === ConvType.one2one;
  if (first && (await conversationBook.get(c.env, id)) === undefined)
    return { ...unstoredOne2One(id, remote ?? selfQualified(c)), id, subconv, unstored: true };
  if (remote !== undefined) {
    const m = await loadMembershipOf(deps(c), id, remote);
    if (m.me === undefined) throw new ApiError(galleyErrors.noConversation);
    return { ...m, me: m.me, id, subconv, unstored: false };
  }
  return { ...(await requireMember(deps(c), id, selfQualified(c))), id, subconv, unstored: false };
}

export interface GroupTarget {
  id: { id: string; domain: string };
  subconv: string | undefined;
  convType: ConvType;
}

/**
 * What a group id names, read from the id alone: 400 `mls-protocol-error` for one that names
 * nothing; another backend's group is refused unless the caller goes to its owner (`remote`).
 */
/** wire-server's words for a group id it cannot read, with why after the colon. */
export const UNPARSABLE_GROUP_ID = 'Could not parse group ID: malformed, or of an unknown version or type';

export function groupTarget(c: Context<AppEnv>, groupId: Uint8Array, o: { remote?: boolean } = {}): GroupTarget {
  const parts = decodeGroupId(groupId);
  if (parts === undefined) throw new ApiError(mlsErrors.mlsProtocolError, UNPARSABLE_GROUP_ID);
  if (parts.domain !== deps(c).domain && o.remote !== true) throw new ApiError(federationErrors.federationNotEnabled);
  return { id: { id: parts.conv, domain: parts.domain }, subconv: parts.subconv, convType: parts.convType };
}
