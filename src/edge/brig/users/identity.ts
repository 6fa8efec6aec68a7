import { z } from 'zod';
import type { UserRow } from './user-json.js';

/** wire's UserSSOId: a SAML user reference (spar's IdP login) or a SCIM external id. */
const samlId = z.object({ tenant: z.string(), subject: z.string() });
export const ssoId = z.union([samlId, z.object({ scim_external_id: z.string() })]);
type SsoId = z.infer<typeof ssoId>;

/** wire's UserIdentity: a verified email, or an SSO id with an optional verified email. */
export type UserIdentity = { kind: 'email'; email: string } | { kind: 'sso'; sso: SsoId; email: string | undefined };

export function identityOf(u: UserRow): UserIdentity | undefined {
  const sso = ssoId.safeParse(u.ssoId);
  if (sso.success) return { kind: 'sso', sso: sso.data, email: u.email ?? undefined };
  return u.email === null ? undefined : { kind: 'email', email: u.email };
}

/**
 * Whether the email can go: only a SAML identity keeps the user able to log in without it.
 * The refusal names what is missing: `no-identity` or `last-identity`.
 */
export function emailRemoval(
  identity: UserIdentity | undefined,
): { ok: true; email: string } | { ok: false; refusal: 'no-identity' | 'last-identity' } {
  if (identity === undefined) return { ok: false, refusal: 'no-identity' };
  if (identity.kind === 'sso' && samlId.safeParse(identity.sso).success && identity.email !== undefined)
    return { ok: true, email: identity.email };
  return { ok: false, refusal: 'last-identity' };
}
