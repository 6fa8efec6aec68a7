import { toBase64 } from '../../../shared/base64.js';
import { uuidToBytes } from '../../../shared/uuid.js';

/** `n` in base 26 with the digits a–z, most significant first (0 is `a`). */
export function base26(n: bigint): string {
  let out = '';
  do {
    out = String.fromCharCode(97 + Number(n % 26n)) + out;
    n /= 26n;
  } while (n > 0n);
  return out;
}

/**
 * The `r=` part of a user's TURN and SFT usernames: the same for a user at every request, and
 * telling nothing about who it is: the first 16 bytes of SHA-256 over the user id's 16 bytes,
 * read as a little-endian number, in base 26.
 */
export async function usernameRandom(user: string): Promise<string> {
  const bytes = uuidToBytes(user);
  if (bytes === undefined) throw new Error(`not a user id: ${user}`);
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes))).slice(0, 16);
  let n = 0n;
  for (let i = hash.length - 1; i >= 0; i--) n = n * 256n + BigInt(hash[i]!);
  return base26(n);
}

export const turnUsername = (expiry: number, random: string) => `d=${expiry}.v=1.k=0.t=s.r=${random}`;

/** `s=1` when the user may start conference calls (the SFT serves them shared). */
export const sftUsername = (expiry: number, shared: boolean, random: string) =>
  `d=${expiry}.v=1.k=0.s=${shared ? 1 : 0}.r=${random}`;

const hmacKey = (secret: string): Promise<CryptoKey> =>
  crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-512' }, false, ['sign']);

/** The HMAC-SHA512 key of TURN's secret file: its text stripped, as wire's brig reads it. */
export const turnSecretKey = (text: string) => hmacKey(text.trim());
/** The HMAC-SHA512 key of the SFT token's secret file: its bytes as they are, as wire's brig reads them. */
export const sftSecretKey = (text: string) => hmacKey(text);

/** The credential TURN and SFT servers check: base64 of HMAC-SHA512(secret, username). */
export async function credentialOf(key: Promise<CryptoKey>, username: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await key, new TextEncoder().encode(username));
  return toBase64(new Uint8Array(mac));
}
