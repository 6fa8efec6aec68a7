import { z } from '@hono/zod-openapi';
import { fromBase64 } from '../../../shared/base64.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { database, type Db } from '../../db/client.js';
import { requireMember } from '../conversations/access-check.js';
import { convParams } from '../conversations/read-routes.js';
import { groupInfoStore } from './group-info-store.js';
import { requireMls } from './mls-enabled.js';

const groupInfoData = z.string().openapi('GroupInfoData', { format: 'binary' });

/**
 * `GET /conversations/{cnv_domain}/{cnv}/groupinfo` (v5+): the GroupInfo of the group's current
 * epoch, for external commits. As wire-server: members only (404 `no-conversation`), and a
 * conversation without one (no commit yet, or Proteus) is 404 `mls-missing-group-info`.
 */
export const getGroupInfo = endpoint(
  {
    name: 'get-group-info',
    method: 'get',
    path: '/conversations/{cnv_domain}/{cnv}/groupinfo',
    from: 5,
    request: { params: convParams },
    errors: [mlsErrors.mlsNotEnabled, galleyErrors.noConversation, mlsErrors.mlsMissingGroupInfo],
    responses: { 200: { description: 'The group information', content: { 'message/mls': { schema: groupInfoData } } } },
  },
  async (c) => {
    requireMls(c);
    const { cnv_domain, cnv } = c.req.valid('param');
    const { conv } = await requireMember(c, { id: cnv, domain: cnv_domain });
    return groupInfoResponse(database(c.env.DB), conv.groupId);
  },
);

/** The stored GroupInfo of a group as `message/mls`; 404 `mls-missing-group-info` before its first commit. */
export async function groupInfoResponse(db: Db, groupId: string | null): Promise<Response> {
  const stored = groupId === null ? undefined : await groupInfoStore.of(db, groupId);
  if (stored === undefined) throw new ApiError(mlsErrors.mlsMissingGroupInfo);
  const bytes = fromBase64(stored);
  if (bytes === undefined) throw new Error(`the stored group info of ${groupId} is not base64`);
  return new Response(bytes, { status: 200, headers: { 'content-type': 'message/mls' } });
}
