import {
  type CiphersuiteImpl,
  type CiphersuiteName,
  defaultCapabilities,
  generateKeyPackage,
  getCiphersuiteFromName,
  getCiphersuiteImpl,
  type KeyPackage,
} from 'ts-mls';
import { encodeKeyPackage, type KeyPackageTBS, signKeyPackage } from 'ts-mls/keyPackage.js';
import { type LeafNodeTBSKeyPackage, signLeafNodeKeyPackage } from 'ts-mls/leafNode.js';
import { type ClientIdentity, clientIdentity } from '../../../../src/shared/mls/identity.js';

/** The suites Wire clients use, by number, as ts-mls names them. */
export const CLIENT_SUITES = new Map<number, CiphersuiteName>([
  [0x0001, 'MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519'],
  [0x0002, 'MLS_128_DHKEMP256_AES128GCM_SHA256_P256'],
  [0x0005, 'MLS_256_DHKEMP521_AES256GCM_SHA512_P521'],
  [0x0007, 'MLS_256_DHKEMP384_AES256GCM_SHA384_P384'],
]);

export const NOW = 1_790_000_000;
const HOUR = 3600;
const DAY = 24 * HOUR;
/** core-crypto's default: back-dated an hour, valid for 84 days. */
export const LIFETIME = { notBefore: NOW - HOUR, notAfter: NOW + 84 * DAY };

export const ALICE: ClientIdentity = {
  user: '5f9c1c0e-3b8a-4a4e-9a55-3c5b8d0b7e21',
  client: '3fa9b2c1d0e4',
  domain: 'example.com',
};

/** A key package a ts-mls client made, with what a test needs to check or forge it. */
export interface KeyPackageFixture {
  bytes: Uint8Array;
  keyPackage: KeyPackage;
  /** The client's signing key, to re-sign edited packages. */
  signKey: Uint8Array;
  impl: CiphersuiteImpl;
}

const implCache = new Map<number, Promise<CiphersuiteImpl>>();
/** A full ts-mls suite implementation (HPKE included), as a client needs it. */
function clientImpl(suite: number): Promise<CiphersuiteImpl> {
  let made = implCache.get(suite);
  if (made === undefined)
    implCache.set(suite, (made = getCiphersuiteImpl(getCiphersuiteFromName(CLIENT_SUITES.get(suite)!))));
  return made;
}

/** ALICE's key package in a suite: a basic credential, core-crypto's lifetime, ts-mls's default capabilities. */
export async function makeKeyPackage(suite: number): Promise<KeyPackageFixture> {
  const impl = await clientImpl(suite);
  const identity = new TextEncoder().encode(clientIdentity(ALICE.user, ALICE.client, ALICE.domain));
  const credential = { credentialType: 'basic' as const, identity };
  const lifetime = { notBefore: BigInt(LIFETIME.notBefore), notAfter: BigInt(LIFETIME.notAfter) };
  const made = await generateKeyPackage(credential, defaultCapabilities(), lifetime, [], impl);
  const keyPackage = made.publicPackage;
  return { bytes: encodeKeyPackage(keyPackage), keyPackage, signKey: made.privatePackage.signaturePrivateKey, impl };
}

/** Changes to a key package before it is signed again with the client's key. */
interface Forgery {
  /** Edits the leaf node, which is then signed again. */
  leaf?: (leaf: LeafNodeTBSKeyPackage) => LeafNodeTBSKeyPackage;
  /** Replaces the leaf node's signature (not signed again). */
  leafSignature?: (signature: Uint8Array) => Uint8Array;
  /** Edits the KeyPackageTBS. */
  tbs?: (tbs: KeyPackageTBS) => KeyPackageTBS;
}

/**
 * The fixture's package changed as the forgery says, its KeyPackageTBS signed again with the
 * client's own key: every other check still passes, so a test isolates the one it aims at.
 */
export async function forge(fixture: KeyPackageFixture, forgery: Forgery): Promise<Uint8Array> {
  const { signature: originalPackageSignature, leafNode: original, ...rest } = fixture.keyPackage;
  let leafNode = original;
  if (forgery.leaf !== undefined) {
    const { signature: originalLeafSignature, ...leafTbs } = original;
    leafNode = await signLeafNodeKeyPackage(forgery.leaf(leafTbs), fixture.signKey, fixture.impl.signature);
  }
  if (forgery.leafSignature !== undefined)
    leafNode = { ...leafNode, signature: forgery.leafSignature(leafNode.signature) };
  const tbs: KeyPackageTBS = { ...rest, leafNode };
  const signed = await signKeyPackage(forgery.tbs?.(tbs) ?? tbs, fixture.signKey, fixture.impl.signature);
  return encodeKeyPackage(signed);
}

/** A copy of the bytes with one bit flipped. */
export function flipBit(bytes: Uint8Array, index: number): Uint8Array {
  const copy = bytes.slice();
  copy[index]! ^= 0x01;
  return copy;
}
