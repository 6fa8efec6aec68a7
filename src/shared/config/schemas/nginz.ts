import { z } from 'zod';
import { federationDomain, positiveInt } from './common.js';

/** The seed's ingress payload limit (512k, raised from 256k). */
export const DEFAULT_INGRESS_LIMIT = 512 * 1024;

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 * 1024, g: 1024 * 1024 * 1024 };

/** nginx size syntax (`512k`, `10m`); `0` means unlimited, as in nginx. */
const bodySize = z.union([z.string(), z.int().nonnegative()]).transform((v, ctx) => {
  const m = /^(\d+)([kmg]?)$/i.exec(String(v));
  if (!m) {
    ctx.addIssue({ code: 'custom', message: `"${v}" is not a size such as 512k, 10m or 0` });
    return z.NEVER;
  }
  const bytes = Number(m[1]) * SIZE_UNITS[m[2]!.toLowerCase()]!;
  return bytes === 0 ? Infinity : bytes;
});

/** nginx rate syntax: `30r/s` or `3000r/m`. */
const rate = z.string().transform((v, ctx) => {
  const m = /^(\d+)r\/([sm])$/.exec(v);
  if (!m || Number(m[1]) === 0) {
    ctx.addIssue({ code: 'custom', message: `"${v}" is not a rate such as 30r/s or 3000r/m` });
    return z.NEVER;
  }
  return { requests: Number(m[1]), perSeconds: m[2] === 's' ? 1 : 60 };
});

const rateLimitZone = z.strictObject({
  rate,
  /** `zuser`: per authenticated user (falls back to the address); `addr`: per client address. */
  key: z.enum(['zuser', 'addr']),
  /** Bucket size; defaults to one period's worth of requests. */
  burst: positiveInt.optional(),
});

const pathPattern = z.string().transform((p, ctx) => {
  try {
    return new RegExp(`^${p}`, 'i');
  } catch {
    ctx.addIssue({ code: 'custom', message: `"${p}" is not a valid path pattern` });
    return z.NEVER;
  }
});

const location = z.strictObject({
  path: pathPattern,
  max_body_size: bodySize.optional(),
  specific_user_rate_limit: z.string().min(1).optional(),
  /** Send `Access-Control-Allow-Credentials: true` (cookie-carrying endpoints such as /access). */
  allow_credentials: z.boolean().default(false),
  /**
   * OAuth access tokens are accepted here, for this scope: GET needs `read:`, `write:` or `admin:`
   * `<scope>`, POST and PUT `write:` or `admin:`, DELETE `admin:`.
   */
  oauth_scope: z
    .string()
    .regex(/^[a-z_]+$/, 'must be a scope name such as self or conversations')
    .optional(),
});

const hostname = z.string().regex(/^[a-z0-9.-]+$/i, 'must be a host name');

export const nginzConfig = z.strictObject({
  nginx_conf: z
    .strictObject({
      env: z.enum(['prod', 'staging', 'local']).default('prod'),
      external_env_domain: federationDomain,
      additional_external_env_domains: z.array(federationDomain).default([]),
      allowlisted_origins: z.array(hostname).default(['webapp', 'teams', 'account']),
      allowlisted_fqdn_origins: z.array(hostname).default([]),
      randomport_allowlisted_origins: z.array(hostname).default([]),
      multi_ingress_deeplink: z.record(federationDomain, z.record(z.string(), z.unknown())).optional(),
      default_client_max_body_size: bodySize.default(DEFAULT_INGRESS_LIMIT),
      rate_limit_status: z.union([z.literal(420), z.literal(429)]).default(429),
      rate_limit_zones: z.record(z.string().min(1), rateLimitZone).default({}),
      locations: z.array(location).default([]),
      /** File of the public JWK (Ed25519) OAuth access tokens are verified with: brig's setOAuthJwkKeyPair, public half. */
      oauth_pub_key: z.string().min(1).optional(),
    })
    .superRefine((n, ctx) => {
      if (n.allowlisted_fqdn_origins.length > 0 && n.env !== 'staging')
        ctx.addIssue({
          code: 'custom',
          path: ['allowlisted_fqdn_origins'],
          message: 'only allowed when env is staging',
        });
      n.locations.forEach((l, i) => {
        const zone = l.specific_user_rate_limit;
        if (zone !== undefined && !(zone in n.rate_limit_zones))
          ctx.addIssue({
            code: 'custom',
            path: ['locations', i, 'specific_user_rate_limit'],
            message: `no rate_limit_zones entry named "${zone}"`,
          });
      });
    }),
});

export type NginzConfig = z.infer<typeof nginzConfig>;
export type NginzLocation = NginzConfig['nginx_conf']['locations'][number];
export type RateLimitZone = NginzConfig['nginx_conf']['rate_limit_zones'][string];
