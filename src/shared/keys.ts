import { toBase64 } from './base64.js';
import { toHex } from './hex.js';

/** Bytes as unpadded base64url text (safe in URLs and keys). */
export const base64url = (bytes: Uint8Array) => toBase64(bytes, { pad: false }).replace(/\+/g, '-').replace(/\//g, '_');

/** The SHA-256 digest of a text's UTF-8 bytes. */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** The SHA-256 of a secret or code, hex: what tables keep instead of it. */
export const sha256Hex = async (text: string): Promise<string> => toHex(await sha256(text));

/** A random base64url token of `bytes` random bytes (long codes sent by mail: password reset, deletion). */
export const randomToken = (bytes: number) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));
