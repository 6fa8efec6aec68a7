import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { domainErrors } from '../../api/errors/domains.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { saveUpdate } from './audit.js';
import { httpsUrl, redirectJson } from './registration-json.js';
import { backendFormat, domainOf, domainParam, domainPartOf, ownedWith } from './registration-rules.js';
import { registrationStore, type RegistrationRow } from './registration-store.js';
import { userByEmail } from '../users/user-names.js';

const redirectConfig = z
  .object({
    domain_redirect: z.enum(['remove', 'backend', 'no-registration']),
    backend_url: httpsUrl.optional(),
    backend: z
      .object({ config_url: httpsUrl.optional(), backend_url: httpsUrl.optional(), webapp_url: httpsUrl.optional() })
      .optional(),
  })
  .openapi('DomainRedirectConfig');

/** The registration the bearer of its ownership token may change (401 for any other token). */
async function ownedRegistration(c: Context<AppEnv>, domain: string): Promise<RegistrationRow> {
  const header = c.req.header('authorization') ?? '';
  const bearer = /^Bearer (\S+)$/.exec(header)?.[1];
  if (bearer === undefined)
    throw new ApiError(commonErrors.badRequest, 'Authorization: Bearer <domain ownership token> is required');
  return ownedWith(await registrationStore.get(database(c.env.DB), domain), bearer);
}

/**
 * `POST /domain-verification/{domain}/backend`: the domain's owner (proven by the ownership token)
 * sends its users to another backend, keeps them from registering here, or takes that back.
 */
export const updateDomainRedirect = endpoint(
  {
    name: 'update-domain-redirect',
    auth: 'none',
    method: 'post',
    path: '/domain-verification/{domain}/backend',
    summary: 'Update the domain redirect configuration',
    request: {
      params: domainParam,
      headers: z.object({ Authorization: z.string().openapi({ description: 'Bearer <domain ownership token>' }) }),
      ...jsonBody(redirectConfig),
    },
    errors: [domainErrors.invalidDomain, domainErrors.authFailure, domainErrors.operationForbidden],
    responses: { 200: { description: 'Updated' } },
  },
  async (c) => {
    const domain = domainOf(c.req.valid('param').domain);
    const before = await ownedRegistration(c, domain);
    if (!['pre-authorized', 'backend', 'no-registration'].includes(before.redirect))
      throw new ApiError(domainErrors.operationForbidden);
    const body = c.req.valid('json');
    let after: RegistrationRow;
    if (body.domain_redirect === 'remove')
      after = { ...before, redirect: 'pre-authorized', backendUrl: null, webappUrl: null };
    else if (body.domain_redirect === 'no-registration')
      after = { ...before, redirect: 'no-registration', backendUrl: null, webappUrl: null };
    else {
      const object = backendFormat(c) === 'object';
      const url = object ? (body.backend?.config_url ?? body.backend?.backend_url) : body.backend_url;
      const webapp = object ? body.backend?.webapp_url : undefined;
      if (url === undefined || (object && webapp === undefined))
        throw new ApiError(
          commonErrors.badRequest,
          object ? 'backend needs config_url and webapp_url' : 'backend_url is required',
        );
      after = {
        ...before,
        redirect: 'backend',
        backendUrl: url,
        webappUrl: webapp ?? null,
        teamInvite: 'not-allowed',
        inviteTeam: null,
      };
    }
    await saveUpdate(c, before, after);
    return c.body(null, 200);
  },
);

const lookupResponse = z
  .object({
    domain_redirect: z.enum(['none', 'locked', 'sso', 'backend', 'no-registration', 'pre-authorized']),
    sso_code: z.uuid().optional(),
    backend_url: httpsUrl.optional(),
    backend: z.object({ config_url: httpsUrl, backend_url: httpsUrl, webapp_url: httpsUrl.optional() }).optional(),
    due_to_existing_account: z.boolean().optional(),
  })
  .openapi('DomainRedirectResponse');

/**
 * `POST /get-domain-registration`: where the apps send someone who types this email address. An
 * account that already exists here stays here: a domain sent to another backend, or to an IdP the
 * account does not sign in with, reads `no-registration` for it.
 */
export const getDomainRegistration = endpoint(
  {
    name: 'get-domain-registration',
    auth: 'none',
    method: 'post',
    path: '/get-domain-registration',
    summary: 'Get the domain registration of an email address',
    request: jsonBody(z.object({ email: z.string() }).openapi('GetDomainRegistrationRequest')),
    errors: [domainErrors.invalidDomain],
    responses: { 200: { description: 'Where to go', ...json(lookupResponse) } },
  },
  async (c) => {
    const email = c.req.valid('json').email.trim();
    const domain = domainOf(domainPartOf(email));
    const db = database(c.env.DB);
    const row = await registrationStore.get(db, domain);
    if (row === undefined) return c.json({ domain_redirect: 'none' as const }, 200);
    const user =
      row.redirect === 'backend' || row.redirect === 'sso' ? await userByEmail(c.env, email.toLowerCase()) : undefined;
    if (user !== undefined && row.redirect === 'backend')
      return c.json({ domain_redirect: 'no-registration' as const, due_to_existing_account: true }, 200);
    if (user !== undefined && row.redirect === 'sso' && !(user.ssoId !== null && user.team === row.authorizedTeam))
      return c.json({ domain_redirect: 'no-registration' as const }, 200);
    return c.json(redirectJson(row, backendFormat(c)), 200);
  },
);
