import type { CiphersuiteName } from 'ts-mls';
import { refhash } from 'ts-mls/crypto/hash.js';
import { makeKeyPackageRef } from 'ts-mls/keyPackage.js';
import type { LeafNodeKeyPackage } from 'ts-mls/leafNode.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedKeyPackage,
  type KeyPackageResult,
  readKeyPackage,
  type UploadExpectation,
  validateUpload,
} from '../../../../src/shared/mls/key-package.js';
import {
  ALICE,
  CLIENT_SUITES,
  flipBit,
  forge,
  type KeyPackageFixture,
  LIFETIME,
  makeKeyPackage,
  NOW,
} from './key-package-fixtures.js';

const SUITES = [...CLIENT_SUITES.keys()];
const fixtures = new Map<number, KeyPackageFixture>();
beforeAll(async () => {
  for (const suite of SUITES) fixtures.set(suite, await makeKeyPackage(suite));
});
const fixture = (suite = 1) => fixtures.get(suite)!;

function checked(result: KeyPackageResult): CheckedKeyPackage {
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result.keyPackage;
}

const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

describe('readKeyPackage: key packages of ts-mls clients', () => {
  it.each(SUITES)('suite %i: suite, identity, signature key, lifetime and the ref ts-mls computes', async (suite) => {
    const { bytes, keyPackage, impl } = fixture(suite);
    const read = checked(await readKeyPackage(bytes));
    expect(read.suite).toBe(suite);
    expect(read.identity).toEqual(ALICE);
    expect(read.signatureKey).toEqual(keyPackage.leafNode.signaturePublicKey);
    expect(read.lifetime).toEqual(LIFETIME);
    expect(read.leafNode.leafNodeSource).toBe('key_package');
    expect(read.ref).toEqual(await makeKeyPackageRef(keyPackage, impl.hash));
  });

  it('0xf031 (which ts-mls decodes as the text "61489"): Ed25519 and SHA-256, as suite 1', async () => {
    const bytes = await forge(fixture(), { tbs: (tbs) => ({ ...tbs, cipherSuite: '61489' as CiphersuiteName }) });
    const read = checked(await readKeyPackage(bytes));
    expect(read.suite).toBe(0xf031);
    expect(read.ref).toEqual(await refhash('MLS 1.0 KeyPackage Reference', bytes, fixture().impl.hash));
  });

  it('hashes the bytes as uploaded, not ts-mls re-encoding of them', async () => {
    // The signature's length as a 4-byte varint, where 2 bytes would do: outside the signed part,
    // so the package stays valid, but re-encoding it gives other bytes.
    const { bytes, keyPackage, impl } = fixture();
    const signatureAt = bytes.length - keyPackage.signature.length - 2;
    expect([...bytes.subarray(signatureAt, signatureAt + 2)]).toEqual([0x40, keyPackage.signature.length]);
    const padded = concat(
      bytes.subarray(0, signatureAt),
      new Uint8Array([0x80, 0, 0, keyPackage.signature.length]),
      keyPackage.signature,
    );
    const read = checked(await readKeyPackage(padded));
    expect(read.ref).toEqual(await refhash('MLS 1.0 KeyPackage Reference', padded, impl.hash));
    expect(read.ref).not.toEqual(await makeKeyPackageRef(read.decoded, impl.hash));
  });
});

describe('readKeyPackage: what it refuses', () => {
  it('every truncation of a package, as malformed', async () => {
    const { bytes } = fixture();
    for (let length = 0; length < bytes.length; length++) {
      expect(await readKeyPackage(bytes.subarray(0, length)), `length ${length}`).toMatchObject({
        ok: false,
        reason: 'malformed',
      });
    }
  });

  it('trailing bytes after a package', async () => {
    const { bytes } = fixture();
    expect(await readKeyPackage(concat(bytes, new Uint8Array([0])))).toEqual({
      ok: false,
      reason: 'malformed',
      message: `Trailing data at position ${bytes.length}`,
    });
  });

  // Ed25519 (WebCrypto) and ECDSA (noble, DER); P-384 and P-521 take the ECDSA path, only slower.
  it.each([1, 2])(
    'suite %i: any byte changed, without throwing (ts-mls decoders and verifiers do throw)',
    async (suite) => {
      const { bytes } = fixture(suite);
      for (let i = 0; i < bytes.length; i++) {
        const changed = bytes.slice();
        changed[i]! ^= 0xff;
        expect((await readKeyPackage(changed)).ok, `byte ${i}`).toBe(false);
      }
    },
  );

  it('another protocol version', async () => {
    const bytes = fixture().bytes.slice();
    bytes[1] = 2;
    expect(await readKeyPackage(bytes)).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'Unsupported protocol version',
    });
  });

  it('an unsupported suite, even when the rest is sound', async () => {
    const chacha = await forge(fixture(), {
      tbs: (tbs) => ({ ...tbs, cipherSuite: 'MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519' }),
    });
    expect(await readKeyPackage(chacha)).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'Unsupported ciphersuite 0x3',
    });
    const unknown = await forge(fixture(), { tbs: (tbs) => ({ ...tbs, cipherSuite: '4660' as CiphersuiteName }) });
    expect(await readKeyPackage(unknown)).toMatchObject({ message: 'Unsupported ciphersuite 0x1234' });
  });

  it.each(SUITES)('suite %i: a KeyPackageTBS signature with a bit flipped', async (suite) => {
    const { bytes } = fixture(suite);
    expect(await readKeyPackage(flipBit(bytes, bytes.length - 1))).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'Invalid KeyPackage signature',
    });
  });

  it.each(SUITES)(
    'suite %i: a LeafNodeTBS signature with a bit flipped, under a good package signature',
    async (suite) => {
      const bytes = await forge(fixture(suite), {
        leafSignature: (signature) => flipBit(signature, signature.length - 1),
      });
      expect(await readKeyPackage(bytes)).toEqual({
        ok: false,
        reason: 'invalid-leaf-node-signature',
        message: 'Invalid LeafNode signature',
      });
    },
  );

  it.each([
    [1, new Uint8Array(31)],
    [2, concat(new Uint8Array([4]), new Uint8Array(64))],
  ])('suite %i: a signature key the primitive cannot import, as a bad signature', async (suite, key) => {
    const bytes = await forge(fixture(suite), { leaf: (leaf) => ({ ...leaf, signaturePublicKey: key }) });
    expect(await readKeyPackage(bytes)).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'Invalid KeyPackage signature',
    });
  });

  it('a leaf node from a commit rather than a key package', async () => {
    const bytes = await forge(fixture(), {
      tbs: (tbs) => {
        const { lifetime, ...leaf } = tbs.leafNode;
        const fromCommit = { ...leaf, leafNodeSource: 'commit', parentHash: new Uint8Array(32) };
        return { ...tbs, leafNode: fromCommit as unknown as LeafNodeKeyPackage };
      },
    });
    expect(await readKeyPackage(bytes)).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('a basic credential that names no client', async () => {
    const bytes = await forge(fixture(), {
      leaf: (leaf) => ({
        ...leaf,
        credential: { credentialType: 'basic', identity: new TextEncoder().encode('alice') },
      }),
    });
    expect(await readKeyPackage(bytes)).toMatchObject({
      ok: false,
      reason: 'invalid',
      message: /^Failed to parse identity/,
    });
  });

  it('an x509 credential whose certificate does not parse', async () => {
    const bytes = await forge(fixture(), {
      leaf: (leaf) => ({ ...leaf, credential: { credentialType: 'x509', certificates: [new Uint8Array([0x30, 0])] } }),
    });
    expect(await readKeyPackage(bytes)).toMatchObject({
      ok: false,
      reason: 'invalid',
      message: /Invalid x509 certificate/,
    });
  });

  it('capabilities that do not list the credential type', async () => {
    const bytes = await forge(fixture(), {
      leaf: (leaf) => ({
        ...leaf,
        capabilities: { ...leaf.capabilities, credentials: leaf.capabilities.credentials.filter((c) => c !== 'basic') },
      }),
    });
    expect(await readKeyPackage(bytes)).toEqual({
      ok: false,
      reason: 'invalid',
      message: 'Missing BasicCredential capability',
    });
  });
});

describe('validateUpload', () => {
  let alices: CheckedKeyPackage;
  let expected: UploadExpectation;
  beforeAll(async () => {
    alices = checked(await readKeyPackage(fixture().bytes));
    expected = { ...ALICE, registeredKey: fixture().keyPackage.leafNode.signaturePublicKey, now: NOW };
  });
  const refusal = (message: string) => ({ ok: false, reason: 'invalid', message });

  it('takes a package of the uploading client with its registered key, the client id compared as a number', () => {
    expect(validateUpload(alices, expected)).toEqual({ ok: true });
    expect(validateUpload(alices, { ...expected, client: `000${ALICE.client.toUpperCase()}` })).toEqual({ ok: true });
  });

  it('refuses a package of another client, user or domain', () => {
    const mismatch = refusal('Client identity does not match credential identity');
    expect(validateUpload(alices, { ...expected, client: 'abc' })).toEqual(mismatch);
    expect(validateUpload(alices, { ...expected, user: '6f9c1c0e-3b8a-4a4e-9a55-3c5b8d0b7e21' })).toEqual(mismatch);
    expect(validateUpload(alices, { ...expected, domain: 'b.example.com' })).toEqual(mismatch);
  });

  it('refuses a package not valid yet, from its not_before on it is', () => {
    const early = { ...expected, now: LIFETIME.notBefore - 1 };
    expect(validateUpload(alices, early)).toEqual(refusal('Key package not_before date is in the future'));
    expect(validateUpload(alices, { ...expected, now: LIFETIME.notBefore })).toEqual({ ok: true });
  });

  it('refuses an expired package, from its not_after on', () => {
    expect(validateUpload(alices, { ...expected, now: LIFETIME.notAfter })).toEqual(refusal('Key package is expired'));
    expect(validateUpload(alices, { ...expected, now: LIFETIME.notAfter - 1 })).toEqual({ ok: true });
  });

  it('refuses a package that lives longer than the maximum lifetime', () => {
    const longest = LIFETIME.notAfter - NOW;
    expect(validateUpload(alices, { ...expected, maxLifetimeSeconds: longest - 1 })).toEqual(
      refusal('Key package expiration time is too far in the future'),
    );
    expect(validateUpload(alices, { ...expected, maxLifetimeSeconds: longest })).toEqual({ ok: true });
  });

  it('refuses a package when the client registered no key for the scheme', () => {
    expect(validateUpload(alices, { ...expected, registeredKey: undefined })).toEqual(
      refusal('No key associated to the given identity and signature scheme'),
    );
  });

  it('refuses a package signed with another key than the registered one', async () => {
    const other = await fixture().impl.signature.keygen();
    expect(validateUpload(alices, { ...expected, registeredKey: other.publicKey })).toEqual(
      refusal('Unrecognised signature key'),
    );
    const extended = concat(expected.registeredKey!, new Uint8Array([0]));
    expect(validateUpload(alices, { ...expected, registeredKey: extended })).toEqual(
      refusal('Unrecognised signature key'),
    );
  });
});
