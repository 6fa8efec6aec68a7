import { ed25519 } from '@noble/curves/ed25519.js';
import { p256, p384, p521 } from '@noble/curves/nist.js';
import { type CiphersuiteName, ciphersuites } from 'ts-mls/crypto/ciphersuite.js';
import type { Hash } from 'ts-mls/crypto/hash.js';
import { makeHashImpl } from 'ts-mls/crypto/implementation/default/makeHashImpl.js';
import type { Signature } from 'ts-mls/crypto/signature.js';
import { derToP1363 } from './ecdsa-der.js';

/** The signature schemes of Wire's MLS keys, as `mls_public_keys` and `mlsPrivateKeyPaths` name them. */
export type SignatureScheme =
  | 'ed25519'
  | 'ecdsa_secp256r1_sha256'
  | 'ecdsa_secp384r1_sha384'
  | 'ecdsa_secp521r1_sha512';

export const SIGNATURE_SCHEMES: readonly SignatureScheme[] = [
  'ed25519',
  'ecdsa_secp256r1_sha256',
  'ecdsa_secp384r1_sha384',
  'ecdsa_secp521r1_sha512',
];

interface SuiteFacts {
  scheme: SignatureScheme;
  signature: 'Ed25519' | 'P256' | 'P384' | 'P521';
  hash: 'SHA-256' | 'SHA-384' | 'SHA-512';
}

/**
 * The cipher suites the backend accepts. 0xf031 (X25519Kyber768Draft00 + Ed25519) differs from
 * suite 1 only in its KEM, which the delivery service never uses: it signs and hashes like suite 1.
 */
const SUITES = new Map<number, SuiteFacts>([
  [0x0001, { scheme: 'ed25519', signature: 'Ed25519', hash: 'SHA-256' }],
  [0x0002, { scheme: 'ecdsa_secp256r1_sha256', signature: 'P256', hash: 'SHA-256' }],
  [0x0005, { scheme: 'ecdsa_secp521r1_sha512', signature: 'P521', hash: 'SHA-512' }],
  [0x0007, { scheme: 'ecdsa_secp384r1_sha384', signature: 'P384', hash: 'SHA-384' }],
  [0xf031, { scheme: 'ed25519', signature: 'Ed25519', hash: 'SHA-256' }],
]);

export const isSupportedSuite = (suite: number) => SUITES.has(suite);

/** The signature scheme of a supported suite. */
export function schemeOf(suite: number): SignatureScheme {
  const facts = SUITES.get(suite);
  if (facts === undefined) throw new Error(`unsupported cipher suite ${suite}`);
  return facts.scheme;
}

/**
 * A suite as ts-mls decodes it → its number. ts-mls gives the name of a suite it knows and, despite
 * its types, the decimal text of one it does not (0xf031 decodes as `"61489"`).
 */
export function suiteNumber(suite: CiphersuiteName | number): number {
  if (typeof suite === 'number') return suite;
  return Object.hasOwn(ciphersuites, suite) ? ciphersuites[suite] : Number(suite);
}

/** What the delivery service does with a suite: sign, verify and hash (never HPKE). */
export interface SuiteImpl {
  suite: number;
  signature: Signature;
  hash: Hash;
}

/**
 * Ed25519 verifies natively (WebCrypto) and signs with noble: a signing key is then bytes, with no
 * import step per signature.
 */
const ed25519Signature: Signature = {
  async sign(signKey, message) {
    return ed25519.sign(message, signKey.length === 32 ? signKey : signKey.slice(-32));
  },
  async verify(publicKey, message, signature) {
    const key = await crypto.subtle.importKey('raw', publicKey as BufferSource, 'Ed25519', false, ['verify']);
    return crypto.subtle.verify('Ed25519', key, signature as BufferSource, message as BufferSource);
  },
  async keygen() {
    const signKey = ed25519.utils.randomSecretKey();
    return { signKey, publicKey: ed25519.getPublicKey(signKey) };
  },
};

interface EcdsaCurve {
  noble: typeof p256 | typeof p384 | typeof p521;
  namedCurve: 'P-256' | 'P-384' | 'P-521';
  hash: 'SHA-256' | 'SHA-384' | 'SHA-512';
  /** Bytes of a scalar: each half of a P1363 signature. */
  size: number;
}

/**
 * ECDSA as MLS signs it: the message hashed by the curve's hash, DER signatures, high S allowed.
 * Verified by the runtime's WebCrypto; noble signs (a signing key stays bytes), and verifies only
 * a key WebCrypto does not import (a compressed point), with the same answer for a bad one.
 */
function ecdsaSignature(curve: EcdsaCurve): Signature {
  const opts = { prehash: true, format: 'der', lowS: false } as const;
  const byNoble = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => {
    try {
      return curve.noble.verify(signature, message, publicKey, opts);
    } catch {
      return false; // a key or signature that is no point or no DER: not a valid signature
    }
  };
  return {
    async sign(signKey, message) {
      return curve.noble.sign(message, signKey, opts);
    },
    async verify(publicKey, message, signature) {
      const p1363 = derToP1363(signature, curve.size);
      if (p1363 === undefined) return false;
      let key: CryptoKey;
      try {
        const algorithm = { name: 'ECDSA', namedCurve: curve.namedCurve };
        key = await crypto.subtle.importKey('raw', publicKey as BufferSource, algorithm, false, ['verify']);
      } catch {
        return byNoble(publicKey, message, signature);
      }
      const algorithm = { name: 'ECDSA', hash: curve.hash };
      return crypto.subtle.verify(algorithm, key, p1363 as BufferSource, message as BufferSource);
    },
    async keygen() {
      const signKey = curve.noble.utils.randomSecretKey();
      return { signKey, publicKey: curve.noble.getPublicKey(signKey) };
    },
  };
}

/**
 * Built here rather than by ts-mls's factory, whose optional post-quantum and Ed448 branches are
 * dynamic imports of packages the worker does not have (a deployment refuses such a bundle).
 */
const SIGNATURES: Record<SuiteFacts['signature'], Signature> = {
  Ed25519: ed25519Signature,
  P256: ecdsaSignature({ noble: p256, namedCurve: 'P-256', hash: 'SHA-256', size: 32 }),
  P384: ecdsaSignature({ noble: p384, namedCurve: 'P-384', hash: 'SHA-384', size: 48 }),
  P521: ecdsaSignature({ noble: p521, namedCurve: 'P-521', hash: 'SHA-512', size: 66 }),
};

const impls = new Map<number, SuiteImpl>();

/** The implementation of a supported suite, made once per isolate. */
export async function suiteImpl(suite: number): Promise<SuiteImpl> {
  const made = impls.get(suite);
  if (made !== undefined) return made;
  const facts = SUITES.get(suite);
  if (facts === undefined) throw new Error(`unsupported cipher suite ${suite}`);
  const impl = { suite, signature: SIGNATURES[facts.signature], hash: makeHashImpl(crypto.subtle, facts.hash) };
  impls.set(suite, impl);
  return impl;
}
