import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { convParams } from '../conversations/read-routes.js';
import { groupInfoFor } from '../federation/query-group-info.js';
import { requireMls } from './mls-enabled.js';

const groupInfoData = z.string().openapi('GroupInfoData', { format: 'binary' });

/**
 * `GET /conversations/{cnv_domain}/{cnv}/groupinfo` (v5+): the GroupInfo of the group's current
 * epoch, for external commits. As wire-server: members only (404 `no-conversation`), and a
 * conversation without one (no commit yet, or Proteus) is 404 `mls-missing-group-info`. Another
 * backend's conversation is asked of its owner (query-group-info).
 */
export const getGroupInfo = endpoint(
  {
    name: 'get-group-info',
    method: 'get',
    path: '/conversations/{cnv_domain}/{cnv}/groupinfo',
    from: 5,
    request: { params: convParams },
    errors: [
      mlsErrors.mlsNotEnabled,
      galleyErrors.noConversation,
      mlsErrors.mlsMissingGroupInfo,
      ...FEDERATED_CALL_ERRORS,
    ],
    responses: { 200: { description: 'The group information', content: { 'message/mls': { schema: groupInfoData } } } },
  },
  async (c) => {
    requireMls(c);
    const { cnv_domain, cnv } = c.req.valid('param');
    return groupInfoFor(c, { id: cnv, domain: cnv_domain });
  },
);
