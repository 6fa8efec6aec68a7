import { z } from '@hono/zod-openapi';
import type { DomainRedirectTag, TeamInviteTag } from '../../../shared/db/schema-domains.js';
import type { RegistrationRow } from './registration-store.js';

export const httpsUrl = z.url({ protocol: /^https$/, message: 'must be an https URL' }).openapi('HttpsUrl');

const redirectTag = z.enum(['none', 'locked', 'sso', 'backend', 'no-registration', 'pre-authorized']);
const inviteTag = z.enum(['allowed', 'not-allowed', 'team']);

/** The `backend` object (v9+): wire names the URL `config_url`, the seed `backend_url`; both are written, either is read. */
const backendObject = z
  .object({ config_url: httpsUrl.optional(), backend_url: httpsUrl.optional(), webapp_url: httpsUrl.optional() })
  .openapi('BackendConfig');

/** How a registration is written: `flat` (until v9: `backend_url`) or `object` (v9 and internal: `backend`). */
export type BackendFormat = 'flat' | 'object';

/** A redirect as clients read it: its tag and the values that go with it. */
interface RedirectJson {
  domain_redirect: DomainRedirectTag;
  sso_code?: string;
  backend_url?: string;
  backend?: { config_url: string; backend_url: string; webapp_url?: string };
}

export function redirectJson(
  row: Pick<RegistrationRow, 'redirect' | 'ssoCode' | 'backendUrl' | 'webappUrl'>,
  format: BackendFormat,
): RedirectJson {
  const out: RedirectJson = { domain_redirect: row.redirect };
  if (row.redirect === 'sso' && row.ssoCode !== null) out.sso_code = row.ssoCode;
  if (row.redirect === 'backend' && row.backendUrl !== null) {
    if (format === 'flat') out.backend_url = row.backendUrl;
    else
      out.backend = {
        config_url: row.backendUrl,
        backend_url: row.backendUrl,
        ...(row.webappUrl === null ? {} : { webapp_url: row.webappUrl }),
      };
  }
  return out;
}

const inviteJson = (row: Pick<RegistrationRow, 'teamInvite' | 'inviteTeam'>) => ({
  team_invite: row.teamInvite,
  ...(row.teamInvite === 'team' && row.inviteTeam !== null ? { team: row.inviteTeam } : {}),
});

/** `DomainRegistrationResponse`: what operators and the owning team see of a registration. */
export function registrationJson(row: RegistrationRow, format: BackendFormat) {
  return {
    domain: row.domain,
    ...(row.authorizedTeam === null ? {} : { authorized_team: row.authorizedTeam }),
    ...redirectJson(row, format),
    ...inviteJson(row),
    dns_verification_token: row.dnsToken,
  };
}

export const registrationResponse = z
  .object({
    domain: z.string(),
    authorized_team: z.uuid().optional(),
    domain_redirect: redirectTag,
    sso_code: z.uuid().optional(),
    backend_url: httpsUrl.optional(),
    backend: backendObject.optional(),
    team_invite: inviteTag,
    team: z.uuid().optional(),
    dns_verification_token: z.string().nullable(),
  })
  .openapi('DomainRegistrationResponse');

/** `DomainRegistrationUpdate` (internal PUT): a redirect and a team invite rule. */
export const registrationUpdate = z
  .object({
    domain_redirect: redirectTag,
    sso_code: z.uuid().optional(),
    backend: backendObject.optional(),
    backend_url: httpsUrl.optional(),
    team_invite: inviteTag,
    team: z.uuid().optional(),
  })
  .superRefine((u, ctx) => {
    if (u.domain_redirect === 'sso' && u.sso_code === undefined)
      ctx.addIssue({ code: 'custom', path: ['sso_code'], message: 'required with domain_redirect sso' });
    if (u.domain_redirect === 'backend' && backendUrlOf(u) === undefined)
      ctx.addIssue({ code: 'custom', path: ['backend'], message: 'required with domain_redirect backend' });
    if (u.team_invite === 'team' && u.team === undefined)
      ctx.addIssue({ code: 'custom', path: ['team'], message: 'required with team_invite team' });
  })
  .openapi('DomainRegistrationUpdate');

type BackendInput = { backend?: z.infer<typeof backendObject> | undefined; backend_url?: string | undefined };

const backendUrlOf = (u: BackendInput) => u.backend?.config_url ?? u.backend?.backend_url ?? u.backend_url;

/** The fields of a registration an update sets: the redirect with its values, the invite rule with its team. */
export interface RedirectAndInvite {
  redirect: DomainRedirectTag;
  ssoCode: string | null;
  backendUrl: string | null;
  webappUrl: string | null;
  teamInvite: TeamInviteTag;
  inviteTeam: string | null;
}

export function fromUpdate(u: z.infer<typeof registrationUpdate>): RedirectAndInvite {
  const backend = u.domain_redirect === 'backend';
  return {
    redirect: u.domain_redirect,
    ssoCode: u.domain_redirect === 'sso' ? u.sso_code! : null,
    backendUrl: backend ? backendUrlOf(u)! : null,
    webappUrl: backend ? (u.backend?.webapp_url ?? null) : null,
    teamInvite: u.team_invite,
    inviteTeam: u.team_invite === 'team' ? u.team! : null,
  };
}
