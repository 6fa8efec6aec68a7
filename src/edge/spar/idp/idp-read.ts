import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { sparErrors } from '../../api/errors/spar.js';
import { json } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { teamAdmin } from '../team-admin.js';
import { ownIdp } from './idp-access.js';
import { idpConfig, idpJson } from './idp-json.js';
import { idpStore } from './idp-store.js';

const idParam = z.object({ id: z.uuid() });
const readErrors = [sparErrors.idpNotFound, sparErrors.insufficientPermissions, sparErrors.noTeamMember];

export const listIdps = endpoint(
  {
    name: 'idp-get-all',
    method: 'get',
    path: '/identity-providers',
    errors: [sparErrors.insufficientPermissions, sparErrors.noTeamMember],
    responses: {
      200: { description: "The team's identity providers", ...json(z.object({ providers: z.array(idpConfig) })) },
    },
  },
  async (c) => {
    const { team } = await teamAdmin(c, 'CreateUpdateDeleteIdp');
    const rows = await idpStore.ofTeam(database(c.env.DB), team);
    return c.json({ providers: rows.map(idpJson) }, 200);
  },
);

export const getIdp = endpoint(
  {
    name: 'idp-get',
    method: 'get',
    path: '/identity-providers/{id}',
    request: { params: idParam },
    errors: readErrors,
    responses: { 200: { description: 'The identity provider', ...json(idpConfig) } },
  },
  async (c) => c.json(idpJson((await ownIdp(c, c.req.valid('param').id)).idp), 200),
);

export const getIdpRaw = endpoint(
  {
    name: 'idp-get-raw',
    method: 'get',
    path: '/identity-providers/{id}/raw',
    request: { params: idParam },
    errors: readErrors,
    responses: {
      200: { description: 'The metadata as uploaded', content: { 'application/xml': { schema: z.string() } } },
    },
  },
  async (c) => {
    const { idp } = await ownIdp(c, c.req.valid('param').id);
    return c.body(idp.metadata, 200, { 'content-type': 'application/xml' });
  },
);
