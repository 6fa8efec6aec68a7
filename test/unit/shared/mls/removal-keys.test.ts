import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { removalKeys } from '../../../../src/shared/mls/removal-keys.js';

const jwk = (type: 'ed25519' | 'ec', curve?: string) =>
  (type === 'ed25519'
    ? generateKeyPairSync('ed25519')
    : generateKeyPairSync('ec', { namedCurve: curve! })
  ).privateKey.export({ format: 'jwk' });

const valid = () => ({
  ed25519: jwk('ed25519'),
  ecdsa_secp256r1_sha256: jwk('ec', 'P-256'),
  ecdsa_secp384r1_sha384: jwk('ec', 'P-384'),
  ecdsa_secp521r1_sha512: jwk('ec', 'P-521'),
});

describe('removalKeys (the MLS_REMOVAL_KEYS secret)', () => {
  it('reads a key per scheme: signing bytes, raw public key, public JWK', () => {
    const secret = valid();
    const keys = removalKeys(JSON.stringify(secret));
    if (typeof keys === 'string') throw new Error(keys);
    expect(keys.ed25519.signKey).toEqual(new Uint8Array(Buffer.from(secret.ed25519.d!, 'base64url')));
    expect(keys.ed25519.publicRaw).toHaveLength(32);
    expect(keys.ecdsa_secp384r1_sha384.publicRaw[0]).toBe(4);
    expect(keys.ecdsa_secp384r1_sha384.publicRaw).toHaveLength(97);
    expect(keys.ecdsa_secp521r1_sha512.signKey).toHaveLength(66);
    expect(keys.ecdsa_secp256r1_sha256.publicJwk).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: secret.ecdsa_secp256r1_sha256.x,
      y: secret.ecdsa_secp256r1_sha256.y,
    });
  });

  it('says what is wrong with a missing or malformed secret', () => {
    expect(removalKeys(undefined)).toBe('the MLS_REMOVAL_KEYS secret is missing');
    expect(removalKeys('{')).toBe('MLS_REMOVAL_KEYS is not JSON');
    const { ecdsa_secp384r1_sha384: _, ...three } = valid();
    expect(removalKeys(JSON.stringify(three))).toBe('MLS_REMOVAL_KEYS: ecdsa_secp384r1_sha384: not a JWK');
    expect(removalKeys(JSON.stringify({ ...valid(), ed25519: jwk('ec', 'P-256') }))).toBe(
      'MLS_REMOVAL_KEYS: ed25519: a P-256 key',
    );
    const publicOnly = { ...valid(), ecdsa_secp521r1_sha512: { ...jwk('ec', 'P-521'), d: undefined } };
    expect(removalKeys(JSON.stringify(publicOnly))).toBe(
      'MLS_REMOVAL_KEYS: ecdsa_secp521r1_sha512: not a private key of P-521',
    );
  });
});
