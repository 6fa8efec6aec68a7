// The instance's default SSO code: the IdP the apps' login page offers when set (`GET
// /sso/settings`), set by the operator (`PUT /i/sso/settings`). Deleting that IdP clears it.
import { z } from '@hono/zod-openapi';
import { endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { sparErrors } from '../api/errors/spar.js';
import { json, jsonBody } from '../api/schemas/common.js';
import { database } from '../db/client.js';
import { idpStore } from './idp/idp-store.js';
import { settingsStore } from './sso-settings-store.js';

const ssoSettings = z.object({ default_sso_code: z.uuid().nullable() }).openapi('SsoSettings');

export const getSsoSettings = endpoint(
  {
    name: 'sso-settings',
    method: 'get',
    path: '/sso/settings',
    auth: 'none',
    responses: { 200: { description: 'The default SSO code, or null', ...json(ssoSettings) } },
  },
  async (c) => c.json({ default_sso_code: await settingsStore.defaultSsoCode(database(c.env.DB)) }, 200),
);

export const putSsoSettings = endpoint(
  {
    name: 'i_put_sso_settings',
    method: 'put',
    path: '/i/sso/settings',
    request: jsonBody(ssoSettings),
    errors: [sparErrors.idpNotFound],
    responses: { 200: { description: 'Stored' } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const code = c.req.valid('json').default_sso_code;
    if (code === null) await settingsStore.clearDefaultSsoCode(db).run();
    else {
      if ((await idpStore.byId(db, code)) === undefined) throw new ApiError(sparErrors.idpNotFound);
      await settingsStore.setDefaultSsoCode(db, code).run();
    }
    return c.body(null, 200);
  },
);
