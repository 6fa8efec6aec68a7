import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { domainErrors } from '../../api/errors/domains.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import type { DomainRedirectTag } from '../../../shared/db/schema-domains.js';
import { auditedWrite, saveUpdate } from './audit.js';
import { fromUpdate, registrationJson, registrationResponse, registrationUpdate } from './registration-json.js';
import { blankRegistration, domainOf, domainParam } from './registration-rules.js';
import { registrationStore, type RegistrationRow } from './registration-store.js';

const PATH = '/i/domain-registration/{domain}';

async function current(c: Context<AppEnv>, text: string) {
  const domain = domainOf(text);
  return { domain, before: await registrationStore.get(database(c.env.DB), domain) };
}

/** `PUT /i/domain-registration/{domain}`: sets the redirect and the invite rule (the owner and tokens stay). */
export const putDomainRegistration = endpoint(
  {
    name: 'domain-registration-update',
    method: 'put',
    path: PATH,
    request: { params: domainParam, ...jsonBody(registrationUpdate) },
    errors: [domainErrors.invalidDomain, domainErrors.operationForbidden],
    responses: { 204: { description: 'Updated' } },
  },
  async (c) => {
    const update = fromUpdate(c.req.valid('json'));
    const { domain, before } = await current(c, c.req.valid('param').domain);
    await saveUpdate(c, before, { ...(before ?? blankRegistration(domain)), ...update });
    return c.body(null, 204);
  },
);

export const getDomainRegistrationInternal = endpoint(
  {
    name: 'domain-registration-get',
    method: 'get',
    path: PATH,
    request: { params: domainParam },
    errors: [domainErrors.invalidDomain, domainErrors.notFound],
    responses: { 200: { description: 'The registration', ...json(registrationResponse) } },
  },
  async (c) => {
    const { before } = await current(c, c.req.valid('param').domain);
    if (before === undefined) throw new ApiError(domainErrors.notFound);
    return c.json(registrationJson(before, 'object'), 200);
  },
);

export const deleteDomainRegistration = endpoint(
  {
    name: 'domain-registration-delete',
    method: 'delete',
    path: PATH,
    request: { params: domainParam },
    errors: [domainErrors.invalidDomain],
    responses: { 204: { description: 'Deleted (or there was none)' } },
  },
  async (c) => {
    const { domain, before } = await current(c, c.req.valid('param').domain);
    const call = `DELETE /i/domain-registration/${domain}`;
    await auditedWrite(c, { domain, call, subject: 'Domain deleted', before, after: undefined });
    return c.body(null, 204);
  },
);

/**
 * The operators' transitions: each takes the registration as it is (undefined: none yet) and gives
 * the new one, the same one when nothing changes, or refuses.
 */
const TRANSITIONS: Record<
  'lock' | 'unlock' | 'preauthorize' | 'unauthorize',
  { subject: string; next: (domain: string, r: RegistrationRow | undefined) => RegistrationRow }
> = {
  // Everything goes: the owning team and its tokens too.
  lock: { subject: 'Domain locked', next: (domain) => ({ ...blankRegistration(domain), redirect: 'locked' }) },
  unlock: {
    subject: 'Domain unlocked',
    next: (_, r) => {
      if (r === undefined) throw new ApiError(domainErrors.notFound);
      if (r.redirect !== 'locked') throw new ApiError(domainErrors.operationForbidden);
      return { ...r, redirect: 'none' };
    },
  },
  preauthorize: {
    subject: 'Domain preauthorized',
    next: (domain, r) => {
      const from: DomainRedirectTag = r?.redirect ?? 'none';
      if (from === 'pre-authorized') return r!;
      if (from !== 'none') throw new ApiError(domainErrors.operationForbidden);
      return { ...(r ?? blankRegistration(domain)), redirect: 'pre-authorized' };
    },
  },
  unauthorize: {
    subject: 'Domain unauthorized',
    next: (_, r) => {
      if (r === undefined) throw new ApiError(domainErrors.notFound);
      if (r.redirect === 'none') return r;
      if (r.redirect === 'locked' || r.redirect === 'sso') throw new ApiError(domainErrors.operationForbidden);
      return { ...r, redirect: 'none', backendUrl: null, webappUrl: null };
    },
  },
};

function transition(action: keyof typeof TRANSITIONS): Endpoint {
  const { subject, next } = TRANSITIONS[action];
  return endpoint(
    {
      name: `domain-registration-${action}`,
      method: 'post',
      path: `${PATH}/${action}`,
      request: { params: domainParam },
      errors: [domainErrors.invalidDomain, domainErrors.notFound, domainErrors.operationForbidden],
      responses: { 204: { description: 'Done (or nothing to do)' } },
    },
    async (c) => {
      const { domain, before } = await current(c, c.req.valid('param').domain);
      const after = next(domain, before);
      if (after === before) return c.body(null, 204);
      await auditedWrite(c, {
        domain,
        call: `POST /i/domain-registration/${domain}/${action}`,
        subject,
        before,
        after,
      });
      return c.body(null, 204);
    },
  );
}

export const domainTransitions = (Object.keys(TRANSITIONS) as Array<keyof typeof TRANSITIONS>).map(transition);
