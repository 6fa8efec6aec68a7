// A member's view of a conversation's MLS groups (its own and its subconversations'), for a local
// caller or a member of another backend asking through federation.
import type { Context } from 'hono';
import { isValidSubconvId } from '../../../shared/mls/group-id.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { loadMembershipOf } from '../conversations/access-check.js';
import { conversationObject } from '../conversations/conversation-object.js';
import { deps } from '../../api/deps.js';

/**
 * Checks that `who` may use a subconversation of a conversation (404 `no-conversation`; 403
 * `access-denied` for non-members). Only regular
 * and 1:1 MLS conversations have them (403 `mls-subconv-unsupported-convtype` for other types and
 * mixed ones; a Proteus one has no group at all, 404 `no-conversation` as in wire-server).
 */
export async function checkSubconversation(
  c: Context<AppEnv>,
  conv: QualifiedId,
  subconv: string,
  who: QualifiedId,
): Promise<void> {
  if (!isValidSubconvId(subconv)) throw new ApiError(galleyErrors.noConversation);
  const { conv: row, me } = await loadMembershipOf(deps(c), conv, who);
  if (me === undefined) throw new ApiError(galleyErrors.accessDenied);
  if (row.type !== 0 && row.type !== 2) throw new ApiError(mlsErrors.mlsSubconvUnsupportedConvType);
  if (row.protocol === 'proteus') throw new ApiError(galleyErrors.noConversation);
  if (row.protocol !== 'mls') throw new ApiError(mlsErrors.mlsSubconvUnsupportedConvType);
}

/**
 * The GroupInfo of the current epoch of a conversation's group (or of its subconversation's), for
 * a member: 404 `no-conversation` for others, 404 `mls-missing-group-info` before the first commit.
 */
export async function groupInfoOf(
  c: Context<AppEnv>,
  conv: QualifiedId,
  subconv: string | undefined,
  who: QualifiedId,
): Promise<Uint8Array> {
  if (subconv !== undefined) await checkSubconversation(c, conv, subconv, who);
  else if ((await loadMembershipOf(deps(c), conv, who)).me === undefined)
    throw new ApiError(galleyErrors.noConversation);
  const stored = await conversationObject(c.env, conv).groupInfo(conv, subconv);
  if (stored === undefined) throw new ApiError(mlsErrors.mlsMissingGroupInfo);
  return stored;
}

/** GroupInfo bytes as the client API answers them. */
export const groupInfoAnswer = (bytes: Uint8Array): Response =>
  new Response(bytes, { status: 200, headers: { 'content-type': 'message/mls' } });
