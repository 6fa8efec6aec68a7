import { describe, expect, it } from 'vitest';
import {
  clientIdentity,
  credentialIdentity,
  parseClientIdentity,
  sameClient,
} from '../../../../src/shared/mls/identity.js';

const USER = '5f9c1c0e-3b8a-4a4e-9a55-3c5b8d0b7e21';
const basic = (text: string) => ({ credentialType: 'basic' as const, identity: new TextEncoder().encode(text) });

describe('parseClientIdentity', () => {
  it('reads the text core-crypto writes', () => {
    expect(parseClientIdentity(`${USER}:3fa9b2c1d0e4@example.com`)).toEqual({
      user: USER,
      client: '3fa9b2c1d0e4',
      domain: 'example.com',
    });
  });

  it('normalizes: lowercase user and domain, the client id as a number without leading zeros', () => {
    expect(parseClientIdentity(`${USER.toUpperCase()}:00003FA9B2C1D0E4@Example.COM`)).toEqual({
      user: USER,
      client: '3fa9b2c1d0e4',
      domain: 'example.com',
    });
    expect(parseClientIdentity(`${USER}:0@localhost`)).toEqual({ user: USER, client: '0', domain: 'localhost' });
  });

  it('takes a client id of up to 64 bits, however many leading zeros it has', () => {
    expect(parseClientIdentity(`${USER}:ffffffffffffffff@example.com`)?.client).toBe('ffffffffffffffff');
    expect(parseClientIdentity(`${USER}:0000ffffffffffffffff@example.com`)?.client).toBe('ffffffffffffffff');
    expect(parseClientIdentity(`${USER}:10000000000000000@example.com`)).toBeUndefined();
  });

  it.each([
    ['no user', ':3fa9@example.com'],
    ['a user that is no UUID', `${USER.replace(/-/g, 'x')}:3fa9@example.com`],
    ['a short user', `${USER.slice(1)}:3fa9@example.com`],
    ['no client', `${USER}:@example.com`],
    ['a client that is no hex', `${USER}:3fa9g@example.com`],
    ['no domain', `${USER}:3fa9@`],
    ['no @', `${USER}:3fa9example.com`],
    ['the x509 form', `X5wcDjuKSk6aVTxbjQt-IQ%213fa9@example.com`],
    ['a dotless domain', `${USER}:3fa9@example`],
    ['an empty label', `${USER}:3fa9@example..com`],
    ['a trailing dot', `${USER}:3fa9@example.com.`],
    ['a label ending in a hyphen', `${USER}:3fa9@example-.com`],
    ['a label of 64 characters', `${USER}:3fa9@${'a'.repeat(64)}.com`],
    ['a last label starting with a digit', `${USER}:3fa9@10.0.0.1`],
    ['an underscore', `${USER}:3fa9@ex_ample.com`],
    ['a non-ASCII letter that lowercases to ASCII', `${USER}:3fa9@example.\u212aom`],
    ['a domain of 254 characters', `${USER}:3fa9@${'a.'.repeat(126)}ab`],
  ])('refuses %s', (_, text) => {
    expect(parseClientIdentity(text)).toBeUndefined();
  });

  it('accepts labels of 63 characters, leading digits and inner hyphens, up to 253 characters', () => {
    expect(parseClientIdentity(`${USER}:1@${'a'.repeat(63)}.com`)).toBeDefined();
    expect(parseClientIdentity(`${USER}:1@1st-backend.example.com`)?.domain).toBe('1st-backend.example.com');
    expect(parseClientIdentity(`${USER}:1@${'a.'.repeat(125)}abc`)?.domain).toHaveLength(253);
  });
});

describe('credentialIdentity', () => {
  it('reads a basic credential', () => {
    expect(credentialIdentity(basic(`${USER}:aa@example.com`))).toEqual({
      ok: true,
      identity: { user: USER, client: 'aa', domain: 'example.com' },
    });
  });

  it('refuses a basic credential that is not an identity, not UTF-8, or starts with a BOM', () => {
    expect(credentialIdentity(basic('alice@example.com'))).toMatchObject({ ok: false, reason: 'malformed-identity' });
    const latin1 = basic(`${USER}:aa@example.com`);
    latin1.identity[latin1.identity.length - 1] = 0xe9;
    expect(credentialIdentity(latin1)).toMatchObject({ ok: false, reason: 'malformed-identity' });
    const withBom = basic(`\ufeff${USER}:aa@example.com`);
    expect(credentialIdentity(withBom)).toMatchObject({ ok: false, reason: 'malformed-identity' });
  });

  it('refuses an x509 credential whose certificate does not parse', () => {
    const result = credentialIdentity({ credentialType: 'x509', certificates: [new Uint8Array([0x30, 0x00])] });
    expect(result).toMatchObject({ ok: false, reason: 'malformed-identity' });
    expect(!result.ok && result.message).toMatch(/Invalid x509 certificate/);
  });
});

describe('sameClient', () => {
  const alice = { user: USER, client: 'ab', domain: 'example.com' };

  it('compares client ids as numbers, users and domains without regard to case', () => {
    expect(sameClient(alice, { user: USER.toUpperCase(), client: '00AB', domain: 'EXAMPLE.com' })).toBe(true);
  });

  it('tells different users, clients and domains apart', () => {
    expect(sameClient(alice, { ...alice, user: '6f9c1c0e-3b8a-4a4e-9a55-3c5b8d0b7e21' })).toBe(false);
    expect(sameClient(alice, { ...alice, client: 'abc' })).toBe(false);
    expect(sameClient(alice, { ...alice, domain: 'b.example.com' })).toBe(false);
  });

  it('matches no client id that is not hex', () => {
    expect(sameClient({ ...alice, client: 'xyz' }, { ...alice, client: 'xyz' })).toBe(false);
  });
});

describe('clientIdentity', () => {
  it('writes the basic credential text, which parses back', () => {
    const text = clientIdentity(USER, '3fa9', 'example.com');
    expect(text).toBe(`${USER}:3fa9@example.com`);
    expect(parseClientIdentity(text)).toEqual({ user: USER, client: '3fa9', domain: 'example.com' });
  });
});
