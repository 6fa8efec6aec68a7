import { z } from '@hono/zod-openapi';
import { toBase64 } from '../../shared/base64.js';

/** A download token: 16 random bytes, base64url with padding (24 characters), as wire makes them. */
export function newAssetToken(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(16)))
    .replaceAll('+', '-')
    .replaceAll('/', '_');
}

export const assetTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_=-]+$/, 'not an asset token')
  .openapi('AssetToken', { description: 'base64url' });
