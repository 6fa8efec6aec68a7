import type { Config } from '../../../shared/config/index.js';

// Placeholders of the configured URL templates (literally `${team}` and `${code}`), not JavaScript templates.
const TEAM_PLACEHOLDER = '$' + '{team}';
const CODE_PLACEHOLDER = '$' + '{code}';
const fill = (template: string, team: string, code: string) =>
  template.replaceAll(TEAM_PLACEHOLDER, team).replaceAll(CODE_PLACEHOLDER, encodeURIComponent(code));

/**
 * Where an invitee goes: a new account from `emailSMS.team.tInvitationUrl` (else the team
 * settings, else the public ingress); an existing personal user from
 * `tExistingUserInvitationUrl` (else below the account pages, which config validation then requires).
 */
export function invitationUrl(config: Config, team: string, code: string, existingUser: boolean): string {
  const { emailSMS, externalUrls } = config.brig;
  if (existingUser) {
    const t =
      emailSMS.team?.tExistingUserInvitationUrl ??
      `${externalUrls.accountPages!.replace(/\/$/, '')}/accept-invitation/?team-code=\${code}`;
    return fill(t, team, code);
  }
  const base = (externalUrls.teamSettings ?? externalUrls.nginz).replace(/\/$/, '');
  return fill(emailSMS.team?.tInvitationUrl ?? `${base}/join/?team-code=\${code}`, team, code);
}
