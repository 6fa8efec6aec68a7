import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { normalizeDomain } from '../../../shared/domain.js';
import { sha256Hex } from '../../../shared/keys.js';
import { ApiError } from '../../api/errors/api-error.js';
import { domainErrors } from '../../api/errors/domains.js';
import type { BackendFormat, RedirectAndInvite } from './registration-json.js';
import type { RegistrationRow } from './registration-store.js';

export const domainParam = z.object({ domain: z.string() });

/** The path's domain, lowercased (400 `invalid-domain` when it is none). */
export function domainOf(text: string): string {
  const domain = normalizeDomain(text);
  if (domain === undefined) throw new ApiError(domainErrors.invalidDomain);
  return domain;
}

/** What follows the last `@` of an address ('' when nothing precedes it). */
export function domainPartOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 1 ? '' : email.slice(at + 1);
}

/** The registration, when `token` is its ownership token (only the latest counts); 401 otherwise. */
export async function ownedWith(row: RegistrationRow | undefined, token: string): Promise<RegistrationRow> {
  if (row?.ownershipHash == null || row.ownershipHash !== (await sha256Hex(token)))
    throw new ApiError(domainErrors.authFailure);
  return row;
}

/** A registration nobody decided anything for yet. */
export const blankRegistration = (domain: string): RegistrationRow => ({
  domain,
  redirect: 'none',
  ssoCode: null,
  backendUrl: null,
  webappUrl: null,
  teamInvite: 'allowed',
  inviteTeam: null,
  dnsToken: null,
  ownershipHash: null,
  authorizedTeam: null,
});

/** A locked domain keeps inviting open; a domain sent to another backend is invited to by nobody here. */
export function checkUpdate(x: RedirectAndInvite): void {
  if (x.redirect === 'locked' && x.teamInvite !== 'allowed') throw new ApiError(domainErrors.operationForbidden);
  if (x.redirect === 'backend' && x.teamInvite !== 'not-allowed') throw new ApiError(domainErrors.operationForbidden);
}

/** Until v9 a backend is one flat `backend_url`; from v9 the `backend` object (with the web app's URL). */
export const backendFormat = (c: Context<AppEnv>): BackendFormat =>
  (c.get('apiVersion') ?? 9) >= 9 ? 'object' : 'flat';
