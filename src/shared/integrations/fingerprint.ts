// The fingerprint by which wire pins an integration's TLS key (legal hold services, bots): what the
// team registers (a PEM public key) and what the peer presents in its handshake must hash alike.
import { fromBase64, fromBase64url, toBase64 } from '../base64.js';

/** An RSA public key's modulus and exponent, big-endian magnitudes. */
export interface RsaKey {
  n: Uint8Array;
  e: Uint8Array;
}

/** The RSA key inside a DER SubjectPublicKeyInfo; undefined when it holds no RSA key. */
export async function rsaKeyOfSpki(spki: Uint8Array): Promise<RsaKey | undefined> {
  try {
    const key = await crypto.subtle.importKey(
      'spki',
      new Uint8Array(spki),
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      true,
      ['verify'],
    );
    const jwk = (await crypto.subtle.exportKey('jwk', key)) as JsonWebKey;
    const n = jwk.n === undefined ? undefined : fromBase64url(jwk.n);
    const e = jwk.e === undefined ? undefined : fromBase64url(jwk.e);
    return n === undefined || e === undefined ? undefined : { n, e };
  } catch {
    return undefined;
  }
}

/** The DER of a PEM `PUBLIC KEY` block; undefined when the text is not one. */
export function spkiOfPem(pem: string): Uint8Array | undefined {
  const m = /^\s*-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----\s*$/.exec(pem);
  if (m === null) return undefined;
  return fromBase64(m[1]!.replace(/\s+/g, ''));
}

/** OpenSSL's MPI: a 4-byte big-endian length, then the magnitude with a 0 byte before a set top bit. */
function mpi(magnitude: Uint8Array): Uint8Array {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const digits = magnitude.subarray(start);
  const pad = digits[0]! & 0x80 ? 1 : 0;
  const out = new Uint8Array(4 + pad + digits.length);
  new DataView(out.buffer).setUint32(0, pad + digits.length);
  out.set(digits, 4 + pad);
  return out;
}

/** The key's modulus size in bytes. */
export function modulusBytes(key: RsaKey): number {
  let start = 0;
  while (start < key.n.length - 1 && key.n[start] === 0) start++;
  return key.n.length - start;
}

/**
 * wire's fingerprint of an RSA key, base64: SHA-256 over the modulus size in bytes (ASCII
 * decimal), MPI(n) and MPI(e).
 */
export async function rsaFingerprint(key: RsaKey): Promise<string> {
  const size = new TextEncoder().encode(String(modulusBytes(key)));
  const parts = [size, mpi(key.n), mpi(key.e)];
  const all = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return toBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', all)));
}

/**
 * A key an integration may be pinned to: an RSA public key in PEM of at least 2048 bits, as wire
 * takes them; its size in bits and fingerprint, or undefined for anything else.
 */
export async function pinnableKey(pem: string): Promise<{ size: number; fingerprint: string } | undefined> {
  const spki = spkiOfPem(pem);
  const key = spki === undefined ? undefined : await rsaKeyOfSpki(spki);
  if (key === undefined || modulusBytes(key) < 256) return undefined;
  return { size: modulusBytes(key) * 8, fingerprint: await rsaFingerprint(key) };
}
