import { z } from '@hono/zod-openapi';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Wire's retention policies: the digit in the asset key, and how long such an asset lives. */
const POLICIES = {
  eternal: { digit: 1, lifetimeMs: undefined },
  persistent: { digit: 2, lifetimeMs: undefined },
  volatile: { digit: 3, lifetimeMs: 28 * DAY_MS },
  'eternal-infrequent_access': { digit: 4, lifetimeMs: undefined },
  expiring: { digit: 5, lifetimeMs: 365 * DAY_MS },
} as const;

export type Retention = keyof typeof POLICIES;

export const retentionSchema = z
  .enum(Object.keys(POLICIES) as [Retention, ...Retention[]])
  .openapi('AssetRetention', { description: 'How long the asset is kept; `persistent` when absent' });

export const retentionDigit = (r: Retention): number => POLICIES[r].digit;

/** When an asset of this policy uploaded at `now` expires (ms), or undefined when it does not. */
export function expiryOf(r: Retention, now: number): number | undefined {
  const lifetime = POLICIES[r].lifetimeMs;
  return lifetime === undefined ? undefined : now + lifetime;
}

const KEY = /^3-([1-5])-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** A new asset key, `3-<retention digit>-<uuid>`. */
export const newAssetKey = (r: Retention): string => `3-${retentionDigit(r)}-${crypto.randomUUID()}`;

export const assetKeySchema = z.string().regex(KEY, 'not an asset key (3-<retention>-<uuid>)').openapi('AssetKey');
