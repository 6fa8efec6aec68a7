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

/**
 * Native push through Amazon SNS (wire's adapter): a platform application per transport and app,
 * `arn:aws:sns:<region>:<account>:app/<transport>/<arnEnv>-<app>`. Its credentials are the
 * worker's secrets SNS_ACCESS_KEY_ID and SNS_SECRET_ACCESS_KEY.
 */
const aws = z.strictObject({
  account: z.string().regex(/^\d{12}$/, 'an AWS account id: 12 digits'),
  region: z.string().min(1),
  arnEnv: z.string().min(1),
  /** Default: SNS of the region. */
  snsEndpoint: z.url().optional(),
});

export const gundeckConfig = z.strictObject({
  settings: z.strictObject({
    disabledAPIVersions: disabledApiVersions,
    notificationTTL: positiveInt.default(28 * 24 * 3600),
    cellsEventQueue: z.string().min(1).optional(),
  }),
  /** The native push adapter: with `aws`, pushes go through SNS; without, devices get none. */
  aws: aws.optional(),
  cache: cache.optional(),
  cacheAdditionalWrite: cache.optional(),
});
export type GundeckConfig = z.infer<typeof gundeckConfig>;
