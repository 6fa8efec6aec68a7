import { z } from 'zod';
import { disabledApiVersions, positiveInt } from './common.js';

/**
 * The cache database section (wire-server's presence store). The seed's rules on `cacheUsername`:
 * absent (not null, not empty) below version 6; absent or `default` from 6 on with legacy auth.
 */
const cache = z
  .strictObject({
    host: z.string().min(1),
    port: z.int().min(1).max(65535),
    version: positiveInt,
    legacyAuth: z.boolean().default(false),
    cacheUsername: z.string().nullable().optional(),
    enableTls: z.boolean().default(false),
    tlsCa: z.string().optional(),
    insecureSkipVerifyTls: z.boolean().default(false),
  })
  .superRefine((c, ctx) => {
    if (!('cacheUsername' in c) || c.cacheUsername === undefined) return;
    const path = ['cacheUsername'];
    if (c.version < 6)
      ctx.addIssue({
        code: 'custom',
        path,
        message: 'must be absent (not null or empty) for cache servers below version 6',
      });
    else if (c.legacyAuth && c.cacheUsername !== 'default')
      ctx.addIssue({
        code: 'custom',
        path,
        message: 'must be absent or "default" with legacy authentication',
      });
  });

export const gundeckConfig = z.strictObject({
  settings: z.strictObject({
    disabledAPIVersions: disabledApiVersions,
    notificationTTL: positiveInt.default(28 * 24 * 3600),
    cellsEventQueue: z.string().min(1).optional(),
  }),
  cache: cache.optional(),
  cacheAdditionalWrite: cache.optional(),
});
