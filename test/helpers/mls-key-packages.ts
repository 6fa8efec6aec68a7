import {
  type CiphersuiteName,
  ciphersuites,
  defaultCapabilities,
  generateKeyPackageWithKey,
  getCiphersuiteFromName,
  getCiphersuiteImpl,
} from 'ts-mls';
import { encodeKeyPackage } from 'ts-mls/keyPackage.js';

const nameOf = (suite: number) =>
  (Object.keys(ciphersuites) as CiphersuiteName[]).find((n) => ciphersuites[n] === suite)!;

const SCHEME: Record<number, string> = {
  3: 'ed25519',
  1: 'ed25519',
  2: 'ecdsa_secp256r1_sha256',
  5: 'ecdsa_secp521r1_sha512',
  7: 'ecdsa_secp384r1_sha384',
};

/** Seconds since the epoch. */
const now = () => BigInt(Math.floor(Date.now() / 1000));

/**
 * An MLS client's signature key (what it registers as `mls_public_keys`) and key packages made
 * with it by ts-mls, with the basic credential `<uuid>:<client hex>@<domain>` Wire clients use
 * (the client id in lowercase hex without leading zeros, as core-crypto writes it).
 */
export async function mlsKeys(o: { user: string; domain: string; suite?: number }) {
  const suite = o.suite ?? 1;
  const impl = await getCiphersuiteImpl(getCiphersuiteFromName(nameOf(suite)));
  const pair = await impl.signature.keygen();
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  return {
    scheme: SCHEME[suite]!,
    publicKey: b64(pair.publicKey),
    /** `n` key packages of a client, valid from an hour ago for `seconds` (default 30 days), base64. */
    async keyPackages(client: string, n: number, o2: { seconds?: number; identity?: string } = {}): Promise<string[]> {
      const hex = BigInt(`0x${client}`).toString(16);
      const identity = new TextEncoder().encode(o2.identity ?? `${o.user}:${hex}@${o.domain}`);
      const lifetime = { notBefore: now() - 3600n, notAfter: now() + BigInt(o2.seconds ?? 30 * 86400) };
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const { publicPackage } = await generateKeyPackageWithKey(
          { credentialType: 'basic', identity },
          defaultCapabilities(),
          lifetime,
          [],
          pair,
          impl,
        );
        out.push(b64(encodeKeyPackage(publicPackage)));
      }
      return out;
    },
  };
}
