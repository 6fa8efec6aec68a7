// How a SAML user is named: the IdP's issuer and the NameID it gives them, kept in the user's
// `sso_id` as wire keeps it (`tenant`: the Issuer element, `subject`: the NameID element).
import type { UserRow } from '../../brig/face.js';
import { escapeXml, NS } from '../xml.js';

export const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const NAMEID_UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';

export interface NameId {
  value: string;
  format?: string | undefined;
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

export function samlSsoId(issuer: string, nameId: NameId): { tenant: string; subject: string } {
  const format = nameId.format === undefined ? '' : ` Format="${escapeXml(nameId.format)}"`;
  return {
    tenant: `<Issuer xmlns="${NS.saml}">${escapeXml(issuer)}</Issuer>`,
    subject: `<NameID xmlns="${NS.saml}"${format}>${escapeXml(nameId.value)}</NameID>`,
  };
}

/** The issuer of the IdP the user signs in with, when they are a SAML user. */
export function samlIssuerOf(user: UserRow): string | undefined {
  const tenant = (user.ssoId as { tenant?: unknown } | null)?.tenant;
  if (typeof tenant !== 'string') return undefined;
  const m = /^<Issuer[^>]*>([^<]*)<\/Issuer>$/.exec(tenant);
  return m === null ? undefined : unescapeXml(m[1]!);
}

/** The key a NameID is found by: case-folded, its qualifiers ignored (as wire compares them). */
export const nameIdKey = (nameId: NameId) => nameId.value.toLowerCase();
