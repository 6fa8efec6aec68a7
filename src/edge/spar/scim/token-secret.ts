import { toBase64 } from '../../../shared/base64.js';

/** A new bearer secret: 32 random bytes, base64 (44 characters), shown to the admin once. */
export function newScimSecret(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** What is stored and looked up instead of the secret: `sha512:` and its base64 SHA-512. */
export async function scimSecretHash(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-512', new TextEncoder().encode(secret));
  return `sha512:${toBase64(new Uint8Array(digest))}`;
}
