import { toBase64 } from './base64.js';

/** Bytes as unpadded base64url text (safe in URLs and keys). */
export const base64url = (bytes: Uint8Array) => toBase64(bytes, { pad: false }).replace(/\+/g, '-').replace(/\//g, '_');

/** The SHA-256 digest of a text's UTF-8 bytes. */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** A random base64url token of `bytes` random bytes (long codes sent by mail: password reset, deletion). */
export const randomToken = (bytes: number) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));
