import { z } from '@hono/zod-openapi';

/** A download token: 16 random bytes, base64url with padding (24 characters), as wire makes them. */
export function newAssetToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll('+', '-').replaceAll('/', '_');
}

export const assetTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_=-]+$/, 'not an asset token')
  .openapi('AssetToken', { description: 'base64url' });
