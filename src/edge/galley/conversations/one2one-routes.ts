import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, jsonBody, qualifiedUserId } from '../../api/schemas/common.js';
import { selfQualified, self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { teamStore } from '../teams/team-store.js';
import { conversationJson } from './conversation-json.js';
import { ensureOne2One } from './one2one.js';
import { deps } from '../../api/deps.js';

const newOne2One = z
  .object({
    users: z.array(z.uuid()).optional(),
    qualified_users: z.array(qualifiedUserId).optional(),
    name: z.string().min(1).max(256).optional(),
    team: z.object({ teamid: z.uuid(), managed: z.boolean().optional() }).optional(),
  })
  .openapi('NewOne2OneConv');

const one2oneRoute = (path: string, from: 0 | 7, until?: 7) =>
  endpoint(
    {
      name: from === 0 ? 'create-one-to-one-conversation@v6' : 'create-one-to-one-conversation',
      method: 'post',
      path,
      from,
      ...(until === undefined ? {} : { until }),
      request: jsonBody(newOne2One),
      errors: [galleyErrors.one2OneSize, galleyErrors.invalidOp, galleyErrors.notConnected, galleyErrors.noTeamMember],
      responses: {
        200: { description: 'The 1:1 existed', ...json(z.record(z.string(), z.unknown())) },
        201: { description: 'The 1:1 was created', ...json(z.record(z.string(), z.unknown())) },
      },
    },
    async (c) => {
      const body = c.req.valid('json');
      const me = selfQualified(c);
      const users = [...(body.users ?? []).map((id) => ({ id, domain: me.domain })), ...(body.qualified_users ?? [])];
      if (users.length !== 1) throw new ApiError(galleyErrors.one2OneSize);
      const other = users[0]!;
      if (other.id === me.id && other.domain === me.domain) throw new ApiError(galleyErrors.invalidOp);
      if (other.domain !== me.domain) throw new ApiError(federationErrors.federationNotEnabled);
      const db = database(c.env.DB);
      if (body.team !== undefined) {
        const inTeam = await teamStore.membersAmong(db, body.team.teamid, [me.id, other.id]);
        if (inTeam.size !== 2) throw new ApiError(galleyErrors.noTeamMember);
      } else if (!(await deps(c).users.areConnected(me, other))) throw new ApiError(galleyErrors.notConnected);
      const { created, conv, members } = await ensureOne2One(deps(c), self(c), me, other);
      c.header('location', conv.id);
      const body_ = conversationJson(conv, members, me, c.get('apiVersion') ?? 0);
      return created ? c.json(body_, 201) : c.json(body_, 200);
    },
  );

/** `POST /one2one-conversations` (v7+; `/conversations/one2one` before): the 1:1 of two connected users or teammates. */
export const createOne2One = one2oneRoute('/one2one-conversations', 7);
export const createOne2OneV6 = one2oneRoute('/conversations/one2one', 0, 7);
