import { refhash } from 'ts-mls/crypto/hash.js';
import { decodeKeyPackage, encodeKeyPackage, type KeyPackage, verifyKeyPackage } from 'ts-mls/keyPackage.js';
import { type LeafNodeKeyPackage, verifyLeafNodeSignatureKeyPackage } from 'ts-mls/leafNode.js';
import { type ClientIdentity, credentialIdentity, sameClient } from './identity.js';
import { isSupportedSuite, suiteImpl, suiteNumber } from './suites.js';

/** A key package whose encoding, suite and signatures are good, with what the backend keeps of it. */
export interface CheckedKeyPackage {
  /** The package as ts-mls decodes it. */
  decoded: KeyPackage;
  /** The cipher suite number. */
  suite: number;
  /** KeyPackageRef: RefHash("MLS 1.0 KeyPackage Reference", the bytes as uploaded). */
  ref: Uint8Array;
  /** The leaf node's signature public key. */
  signatureKey: Uint8Array;
  /** The client the credential names. */
  identity: ClientIdentity;
  lifetime: KeyPackageLifetime;
  leafNode: LeafNodeKeyPackage;
}

/** When a key package may be used, in seconds since the Unix epoch. */
interface KeyPackageLifetime {
  notBefore: number;
  notAfter: number;
}

/**
 * Why a key package is refused. `malformed`: the bytes are no key package (wire-server's key
 * package upload answers 400 `bad-request`, a commit bundle 400 `mls-protocol-error`);
 * `invalid-leaf-node-signature`: 400 `mls-invalid-leaf-node-signature`; `invalid`: anything else,
 * 400 `mls-protocol-error`. The message is wire-server's where it has one.
 */
interface KeyPackageFailure {
  ok: false;
  reason: 'malformed' | 'invalid' | 'invalid-leaf-node-signature';
  message: string;
}

export type KeyPackageResult = { ok: true; keyPackage: CheckedKeyPackage } | KeyPackageFailure;

/** What an upload must match: the uploading client, its registered key, the lifetime rules. */
export interface UploadExpectation extends ClientIdentity {
  /** The client's `mls_public_keys` entry for the suite's signature scheme (decoded base64). */
  registeredKey: Uint8Array | undefined;
  /** brig's `setKeyPackageMaximumLifetime`: how far ahead `not_after` may lie, in seconds. */
  maxLifetimeSeconds?: number;
  /** Seconds since the Unix epoch. */
  now: number;
}

const MLS10 = 0x0001;
const KEY_PACKAGE_REF_LABEL = 'MLS 1.0 KeyPackage Reference';

const fail = (reason: KeyPackageFailure['reason'], message: string): KeyPackageFailure => ({
  ok: false,
  reason,
  message,
});

/** The package the bytes are, whole. ts-mls's decoder returns `undefined` or throws on bad input. */
function decode(bytes: Uint8Array): { ok: true; keyPackage: KeyPackage } | KeyPackageFailure {
  // ts-mls cannot decode other versions at all; name the problem as wire-server does.
  if (bytes.length >= 2 && ((bytes[0]! << 8) | bytes[1]!) !== MLS10) {
    return fail('invalid', 'Unsupported protocol version');
  }
  let decoded: [KeyPackage, number] | undefined;
  try {
    decoded = decodeKeyPackage(bytes, 0);
  } catch {
    decoded = undefined;
  }
  if (decoded === undefined) return fail('malformed', 'Could not parse the key package');
  const [keyPackage, used] = decoded;
  if (used !== bytes.length) return fail('malformed', `Trailing data at position ${used}`);
  return { ok: true, keyPackage };
}

/** A signature check; a key or signature the primitive cannot even parse is a bad signature. */
async function verifies(check: () => Promise<boolean>): Promise<boolean> {
  try {
    return await check();
  } catch {
    return false;
  }
}

/**
 * Decodes a KeyPackage (raw TLS, as clients upload it and as Add proposals carry it) and checks it
 * in itself: version mls10 (first: ts-mls cannot decode another), the whole input is one package,
 * then in wire-server's order the suite is supported, the KeyPackageTBS signature, the LeafNodeTBS
 * signature, the credential names a Wire client, the leaf source is key_package (ts-mls's decoder
 * insists on it), the capabilities list the credential's type. What the package must match
 * (uploader, registered key, lifetime) is `validateUpload`'s.
 */
export async function readKeyPackage(bytes: Uint8Array): Promise<KeyPackageResult> {
  const decoded = decode(bytes);
  if (!decoded.ok) return decoded;
  const keyPackage = decoded.keyPackage;
  const suite = suiteNumber(keyPackage.cipherSuite);
  if (!isSupportedSuite(suite)) return fail('invalid', `Unsupported ciphersuite 0x${suite.toString(16)}`);
  const { signature, hash } = await suiteImpl(suite);
  const leafNode = keyPackage.leafNode;
  if (!(await verifies(() => verifyKeyPackage(keyPackage, signature)))) {
    return fail('invalid', 'Invalid KeyPackage signature');
  }
  if (!(await verifies(() => verifyLeafNodeSignatureKeyPackage(leafNode, signature)))) {
    return fail('invalid-leaf-node-signature', 'Invalid LeafNode signature');
  }
  const identity = credentialIdentity(leafNode.credential);
  if (!identity.ok) return fail('invalid', identity.message);
  const certified = identity.certifiedKey;
  if (certified !== undefined && !equalBytes(certified, leafNode.signaturePublicKey))
    return fail('invalid', "Certificate public key does not match client's");
  if (!leafNode.capabilities.credentials.includes(leafNode.credential.credentialType)) {
    return fail('invalid', 'Missing BasicCredential capability');
  }
  const checked: CheckedKeyPackage = {
    decoded: keyPackage,
    suite,
    ref: await refhash(KEY_PACKAGE_REF_LABEL, bytes, hash),
    signatureKey: leafNode.signaturePublicKey,
    identity: identity.identity,
    lifetime: { notBefore: Number(leafNode.lifetime.notBefore), notAfter: Number(leafNode.lifetime.notAfter) },
    leafNode,
  };
  return { ok: true, keyPackage: checked };
}

/**
 * Why a lifetime is not acceptable now (brig's `validateLifetime'`), or `undefined` when it is:
 * `notBefore <= now < notAfter`, and `notAfter <= now + maxLifetimeSeconds` when there is a maximum.
 */
function lifetimeProblem(lifetime: KeyPackageLifetime, now: number, maxLifetimeSeconds?: number): string | undefined {
  if (lifetime.notBefore > now) return 'Key package not_before date is in the future';
  if (lifetime.notAfter <= now) return 'Key package is expired';
  if (maxLifetimeSeconds !== undefined && lifetime.notAfter > now + maxLifetimeSeconds) {
    return 'Key package expiration time is too far in the future';
  }
  return undefined;
}

const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/**
 * Whether a checked key package may be uploaded by a client (brig's `validateUploadedKeyPackage`, in
 * its order): the credential names the uploading client, the lifetime is acceptable now, and the
 * leaf's signature key is the one the client registered for the suite's signature scheme. Every
 * failure is 400 `mls-protocol-error`.
 */
export function validateUpload(
  keyPackage: CheckedKeyPackage,
  expected: UploadExpectation,
): { ok: true } | KeyPackageFailure {
  if (!sameClient(keyPackage.identity, expected)) {
    return fail('invalid', 'Client identity does not match credential identity');
  }
  const lifetime = lifetimeProblem(keyPackage.lifetime, expected.now, expected.maxLifetimeSeconds);
  if (lifetime !== undefined) return fail('invalid', lifetime);
  if (expected.registeredKey === undefined) {
    return fail('invalid', 'No key associated to the given identity and signature scheme');
  }
  if (!equalBytes(keyPackage.signatureKey, expected.registeredKey)) {
    return fail('invalid', 'Unrecognised signature key');
  }
  return { ok: true };
}

/** A decoded KeyPackage's TLS bytes again (an Add proposal's package, checked like an uploaded one). */
export const keyPackageBytes = (keyPackage: KeyPackage): Uint8Array => encodeKeyPackage(keyPackage);
