import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { ApiError } from '../api/errors/api-error.js';
import { sparErrors } from '../api/errors/spar.js';

/** This backend as a SAML service provider: where IdPs send their answers, and who to contact. */
export interface ServiceProvider {
  ssoUri: string;
  contacts: ReadonlyArray<Record<string, string>>;
}

/** The service provider of the request's ingress (`Z-Host` under domainConfigs): 404 `not-found` for an unknown one. */
export function serviceProvider(c: Context<AppEnv>): ServiceProvider {
  const { saml, domainConfigs } = c.get('config').spar;
  const sp = saml ?? domainConfigs?.[c.get('zHost')];
  if (sp === undefined) throw new ApiError(sparErrors.spNotFound);
  return { ssoUri: sp.spSsoUri.replace(/\/+$/, ''), contacts: sp.contacts };
}

/** Where SCIM resources of the request's ingress live: its domain's base URI, else the instance's. */
export function scimBaseUri(c: Context<AppEnv>): string {
  const { domainConfigs, scimBaseUri: instance } = c.get('config').spar;
  return (domainConfigs?.[c.get('zHost')]?.scimBaseUri ?? instance).replace(/\/+$/, '');
}

/**
 * Where an IdP posts its responses, which is also the SP's entity id and the audience: one URL
 * for the instance's v1 IdPs, one per team for v2 ones.
 */
export function finalizeLoginUrl(sp: ServiceProvider, idp: { apiVersion: 1 | 2; team: string }): string {
  return idp.apiVersion === 2 ? `${sp.ssoUri}/finalize-login/${idp.team}` : `${sp.ssoUri}/finalize-login`;
}
