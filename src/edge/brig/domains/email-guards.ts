/**
 * What a domain registration means for the flows that bring an email address in: registering or
 * activating it, joining or being invited to a team, creating a team, changing to it. Each guard
 * refuses with 403 `condition-failed` and wire's message naming the rule.
 */
import { ApiError } from '../../api/errors/api-error.js';
import { domainErrors } from '../../api/errors/domains.js';
import type { Db } from '../../db/client.js';
import { normalizeDomain } from '../../../shared/domain.js';
import { domainOf, domainPartOf } from './registration-rules.js';
import { registrationStore, type RegistrationRow } from './registration-store.js';
import type { Deps } from '../../api/deps.js';

const refuse = (message: string) => new ApiError(domainErrors.emailDomainGuard, message);
const BY_REDIRECT = {
  sso: '`domain_redirect` is set to `sso:{code}`',
  backend: '`domain_redirect` is set to `backend`',
  'no-registration': '`domain_redirect` is set to `no-registration`',
} as const;
const NOT_ALLOWED = '`teamInvite` is set to `not-allowed`';
const OTHER_TEAM = '`teamInvite` is restricted to another team.';

/** The registration of the email's domain (400 `invalid-domain` when it has none). */
function registrationOf(db: Db, email: string): Promise<RegistrationRow | undefined> {
  return registrationStore.get(db, domainOf(domainPartOf(email)));
}

function refuseRedirect(r: RegistrationRow, which: ReadonlyArray<keyof typeof BY_REDIRECT>): void {
  const tag = r.redirect as keyof typeof BY_REDIRECT;
  if (which.includes(tag)) throw refuse(BY_REDIRECT[tag]);
}

function refuseInvite(r: RegistrationRow, team: string | null): void {
  if (r.teamInvite === 'not-allowed') throw refuse(NOT_ALLOWED);
  if (r.teamInvite === 'team' && r.inviteTeam !== team) throw refuse(OTHER_TEAM);
}

/** Registering (personal or as a team's creator) and activating: not for domains signing in elsewhere. */
export async function guardRegisterOrActivate(db: Db, email: string): Promise<void> {
  const r = await registrationOf(db, email);
  if (r !== undefined) refuseRedirect(r, ['sso', 'backend', 'no-registration']);
}

/** Joining `team` through its invitation: the domain's invite rule decides. */
export async function guardJoinByInvitation(db: Db, email: string, team: string): Promise<void> {
  const r = await registrationOf(db, email);
  if (r !== undefined) refuseInvite(r, team);
}

/**
 * Inviting to `team`: the domain's invite rule decides; a domain that takes no registrations here
 * keeps its existing accounts out of teams too (new ones register through the invitation).
 */
export async function guardInvite(db: Db, email: string, team: string, existingAccount: boolean): Promise<void> {
  const r = await registrationOf(db, email);
  if (r === undefined) return;
  const inviteRefused =
    (r.redirect === 'no-registration' && existingAccount) ||
    r.teamInvite === 'not-allowed' ||
    (r.teamInvite === 'team' && r.inviteTeam !== team);
  if (inviteRefused) throw new ApiError(domainErrors.inviteNotAllowed);
}

/** A personal user creating a team: only while the domain is nobody's to decide for. */
export async function guardUpgradeToTeam(db: Db, email: string): Promise<void> {
  const r = await registrationOf(db, email);
  if (r === undefined) return;
  refuseRedirect(r, ['no-registration', 'backend', 'sso']);
  refuseInvite(r, null);
}

/** A user of `team` (null: personal) moving to the address: not into a domain another team or backend has. */
export async function guardEmailChange(d: Deps, email: string, team: string | null): Promise<void> {
  const r = await registrationOf(d.db, email);
  if (r === undefined) return;
  refuseRedirect(r, ['no-registration', 'backend']);
  if (r.redirect === 'sso' && (team === null || !(await d.sso.teamIdpIds(team)).includes(r.ssoCode ?? '')))
    throw refuse(BY_REDIRECT.sso);
  refuseInvite(r, team);
}

/** Whether the team signs the domain's users in through its own IdP: their addresses need no verification. */
export async function emailDomainSignsInThrough(db: Db, email: string, team: string): Promise<boolean> {
  const domain = normalizeDomain(domainPartOf(email));
  const r = domain === undefined ? undefined : await registrationStore.get(db, domain);
  return r?.redirect === 'sso' && r.authorizedTeam === team;
}
