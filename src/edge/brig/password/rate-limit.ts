import type { Config } from '../../../shared/config/index.js';
import { formatIpKey, inCidr, maskIp, parseIp } from '../../../shared/ip.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';

/** Who asks for a password hash: an unauthenticated address, a user (or provider), or an internal caller. */
export type HashingCaller = { ip: string } | { user: string } | 'internal';

/** The client address nginz saw; `unknown` when the platform gave none. */
export function clientIp(req: Request): string {
  return req.headers.get('cf-connecting-ip') ?? req.headers.get('x-forwarded-for')?.split(',')[0]?.trim() ?? 'unknown';
}

function bucketOf(
  config: Config,
  caller: HashingCaller,
): { key: string; burst: number; inverseRate: number } | undefined {
  const limits = config.brig.optSettings.setPasswordHashingRateLimit;
  if (caller === 'internal') return { key: 'internal', ...limits.internalLimit };
  if ('user' in caller) return { key: `user:${caller.user}`, ...limits.userLimit };
  const ip = parseIp(caller.ip);
  if (ip === undefined) return { key: `ip:${caller.ip}`, ...limits.ipAddrLimit };
  if (limits.ipAddressExceptions.some((block) => inCidr(ip, block))) return undefined;
  const prefix = ip.family === 4 ? limits.ipv4CidrBlock : limits.ipv6CidrBlock;
  return { key: `ip:${formatIpKey(maskIp(ip, prefix))}`, ...limits.ipAddrLimit };
}

/**
 * Takes a token from the caller's password-hashing bucket (`setPasswordHashingRateLimit`), or
 * refuses with 429 and `Retry-After`. An `inverseRate` of 0 means no limit; addresses in
 * `ipAddressExceptions` are never limited.
 */
export async function takeHashingToken(env: Env, config: Config, caller: HashingCaller): Promise<void> {
  const bucket = bucketOf(config, caller);
  if (bucket === undefined || bucket.inverseRate === 0) return;
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`password-hashing:${bucket.key}`));
  const result = await stub.take(bucket.burst, 1_000_000 / bucket.inverseRate);
  if (!result.allowed)
    throw new ApiError(brigErrors.rateLimitExceeded, undefined, { 'retry-after': String(result.retryAfterSeconds) });
}
