import { describe, expect, it } from 'vitest';
import { emailRemoval, identityOf } from '../../../../src/edge/brig/users/identity.js';
import type { UserRow } from '../../../../src/edge/brig/users/user-json.js';

const user = (email: string | null, ssoId: unknown = null) => ({ email, ssoId }) as UserRow;
const saml = { tenant: '<Issuer>https://idp.example.com</Issuer>', subject: '<NameID>a</NameID>' };

describe('user identities', () => {
  it('reads an SSO id (SAML or SCIM) before the email, and nothing as no identity', () => {
    expect(identityOf(user('a@example.com'))).toEqual({ kind: 'email', email: 'a@example.com' });
    expect(identityOf(user('a@example.com', saml))).toEqual({ kind: 'sso', sso: saml, email: 'a@example.com' });
    expect(identityOf(user(null, { scim_external_id: 'x' }))).toEqual({
      kind: 'sso',
      sso: { scim_external_id: 'x' },
      email: undefined,
    });
    expect(identityOf(user(null))).toBeUndefined();
    expect(identityOf(user(null, { unrelated: true }))).toBeUndefined();
  });

  it('lets only SAML users with an email drop it', () => {
    expect(emailRemoval(identityOf(user('a@example.com', saml)))).toEqual({ ok: true, email: 'a@example.com' });
    expect(emailRemoval(identityOf(user(null, saml)))).toEqual({ ok: false, refusal: 'last-identity' });
    expect(emailRemoval(identityOf(user('a@example.com', { scim_external_id: 'x' })))).toEqual({
      ok: false,
      refusal: 'last-identity',
    });
    expect(emailRemoval(identityOf(user('a@example.com')))).toEqual({ ok: false, refusal: 'last-identity' });
    expect(emailRemoval(identityOf(user(null)))).toEqual({ ok: false, refusal: 'no-identity' });
  });
});
