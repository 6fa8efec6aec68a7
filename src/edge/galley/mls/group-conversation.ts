import type { Context } from 'hono';
import { decodeGroupId } from '../../../shared/mls/group-id.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { type Membership, requireMember } from '../conversations/access-check.js';

/**
 * The conversation an MLS group id names, and the caller's membership of it (404 `no-conversation`
 * otherwise): 400 `mls-protocol-error` for a group id that names none; another backend's group
 * needs federation.
 */
export async function groupConversation(
  c: Context<AppEnv>,
  groupId: Uint8Array,
): Promise<Membership & { id: { id: string; domain: string } }> {
  const parts = decodeGroupId(groupId);
  if (parts === undefined) throw new ApiError(mlsErrors.mlsProtocolError, 'Could not parse group ID');
  if (parts.subconv !== undefined)
    throw new ApiError(mlsErrors.mlsProtocolError, 'Subconversations are not supported yet');
  if (parts.domain !== c.get('config').brig.optSettings.setFederationDomain)
    throw new ApiError(federationErrors.federationNotEnabled);
  const id = { id: parts.conv, domain: parts.domain };
  return { ...(await requireMember(c, id)), id };
}
