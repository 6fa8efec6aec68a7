import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readKeyPackage, validateUpload } from '../../../../src/shared/mls/key-package.js';
import { certifiedClient } from '../../../../src/shared/mls/x509-identity.js';
import { ed25519Certificate } from '../../../helpers/x509.js';
import { ALICE, forge, makeKeyPackage, NOW } from './key-package-fixtures.js';

/** The `wireapp://` URI of a client in an end-to-end identity certificate. */
const clientUri = (c: { user: string; client: string; domain: string }, bang = '%21') =>
  `wireapp://${Buffer.from(c.user.replace(/-/g, ''), 'hex').toString('base64url')}${bang}${c.client}@${c.domain}`;
const handleUri = 'wireapp://%40alice@example.com';
const key = () => generateKeyPairSync('ed25519').privateKey;
const rawPublic = (k: KeyObject) => Buffer.from(k.export({ format: 'jwk' }).x!, 'base64url');

describe('certifiedClient (X.509 credentials)', () => {
  it('reads the client of the first wireapp client URI, and the certificate key', () => {
    const k = key();
    const cert = ed25519Certificate(k, [handleUri, clientUri(ALICE)]);
    const read = certifiedClient([cert]);
    expect(read).toMatchObject(ALICE);
    expect(typeof read !== 'string' && Buffer.from(read.publicKey).equals(rawPublic(k))).toBe(true);
    expect(certifiedClient([ed25519Certificate(k, [clientUri(ALICE, '!')])])).toMatchObject(ALICE);
  });

  it('says why a chain names no client', () => {
    expect(certifiedClient([])).toBe('Invalid x509 certificate chain');
    expect(certifiedClient([new Uint8Array([1, 2, 3])])).toBe('Invalid x509 certificate');
    expect(certifiedClient([ed25519Certificate(key(), [])])).toBe('No SAN URIs found');
    expect(certifiedClient([ed25519Certificate(key(), [handleUri])])).toBe('No wireapp label found');
  });
});

describe('key packages with X.509 credentials', () => {
  /** ALICE's suite-1 key package with an x509 credential for a certificate of `certKey`. */
  async function x509Package(certKey?: KeyObject) {
    const fixture = await makeKeyPackage(1);
    const own = createPrivateKey({ key: Buffer.from(fixture.signKey), format: 'der', type: 'pkcs8' });
    const cert = ed25519Certificate(certKey ?? own, [clientUri(ALICE)]);
    return forge(fixture, {
      leaf: (leaf) => ({
        ...leaf,
        credential: { credentialType: 'x509', certificates: [cert] },
        capabilities: { ...leaf.capabilities, credentials: ['basic', 'x509'] },
      }),
    });
  }

  it('takes the client the certificate names, when its key is the leaf key', async () => {
    const read = await readKeyPackage(await x509Package());
    if (!read.ok) throw new Error(read.message);
    expect(read.keyPackage.identity).toEqual(ALICE);
    const registeredKey = read.keyPackage.signatureKey;
    expect(validateUpload(read.keyPackage, { ...ALICE, registeredKey, now: NOW })).toEqual({ ok: true });
  });

  it('refuses a certificate of another key', async () => {
    expect(await readKeyPackage(await x509Package(key()))).toMatchObject({
      ok: false,
      reason: 'invalid',
      message: "Certificate public key does not match client's",
    });
  });
});
