import type { RateLimitZone } from '../../shared/config/schemas/nginz.js';

/** Takes one token from the zone's bucket for this caller (one Durable Object per bucket key). */
export function takeToken(env: Env, zoneName: string, zone: RateLimitZone, caller: string) {
  const refillPerSecond = zone.rate.requests / zone.rate.perSeconds;
  const capacity = zone.burst ?? zone.rate.requests;
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`${zoneName}:${caller}`));
  return stub.take(capacity, refillPerSecond);
}
