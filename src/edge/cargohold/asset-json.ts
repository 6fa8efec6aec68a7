import { z } from '@hono/zod-openapi';
import { domain } from '../api/schemas/common.js';
import type { AssetRow } from './asset-store.js';
import { assetTokenSchema } from './tokens.js';

export const assetSchema = z
  .object({
    key: z.string().openapi({ example: '3-2-c4f0b9cd-9f93-4b69-9f0e-1a1d3e0f4a2b' }),
    domain,
    expires: z.string().optional().openapi({ description: 'UTC, for volatile and expiring assets' }),
    token: assetTokenSchema
      .optional()
      .openapi({ description: 'Needed by others to download; absent for public assets' }),
  })
  .openapi('Asset');

export function assetJson(row: AssetRow, localDomain: string): z.infer<typeof assetSchema> {
  return {
    key: row.key,
    domain: localDomain,
    ...(row.expiresAt === null ? {} : { expires: new Date(row.expiresAt).toISOString() }),
    ...(row.token === null ? {} : { token: row.token }),
  };
}
