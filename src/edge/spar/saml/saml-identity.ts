// How a SAML user is named: the IdP's issuer and the NameID it gives them, kept in the user's
// `sso_id` as wire keeps it (`tenant`: the Issuer element, `subject`: the NameID element).
import type { UserRow } from '../../brig/face.js';

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** The issuer of the IdP the user signs in with, when they are a SAML user. */
export function samlIssuerOf(user: UserRow): string | undefined {
  const tenant = (user.ssoId as { tenant?: unknown } | null)?.tenant;
  if (typeof tenant !== 'string') return undefined;
  const m = /^<Issuer[^>]*>([^<]*)<\/Issuer>$/.exec(tenant);
  return m === null ? undefined : unescapeXml(m[1]!);
}
