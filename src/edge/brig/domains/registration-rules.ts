import { z } from '@hono/zod-openapi';
import { normalizeDomain } from '../../../shared/domain.js';
import { ApiError } from '../../api/errors/api-error.js';
import { domainErrors } from '../../api/errors/domains.js';
import type { RedirectAndInvite } from './registration-json.js';
import type { RegistrationRow } from './registration-store.js';

export const domainParam = z.object({ domain: z.string() });

/** The path's domain, lowercased (400 `invalid-domain` when it is none). */
export function domainOf(text: string): string {
  const domain = normalizeDomain(text);
  if (domain === undefined) throw new ApiError(domainErrors.invalidDomain);
  return domain;
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
