import { z } from '@hono/zod-openapi';
import { FEATURE_NAMES, type FeatureName } from './registry.js';

const featureStatus = z.enum(['enabled', 'disabled']);
export const lockStatus = z.enum(['locked', 'unlocked']);

/** `{status, lockStatus, ttl, config?}` as every feature is shown. */
export const lockableFeature = z
  .object({
    status: featureStatus,
    lockStatus,
    ttl: z.literal('unlimited'),
    config: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('LockableFeature');

export const allFeatures = z
  .object(Object.fromEntries(FEATURE_NAMES.map((n) => [n, lockableFeature])))
  .openapi('AllTeamFeatures');

/** A change: the status, the config for features that have one; a TTL is accepted and ignored. */
export const featureChange = z
  .object({
    status: featureStatus,
    config: z.record(z.string(), z.unknown()).optional(),
    ttl: z.union([z.literal('unlimited'), z.int().min(0)]).optional(),
  })
  .openapi('FeatureChange');

export const featurePatch = z
  .object({
    status: featureStatus.optional(),
    lockStatus: lockStatus.optional(),
    config: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('FeaturePatch');

export const teamParam = z.object({ tid: z.uuid() });

export const featureNameParam = z.enum(FEATURE_NAMES as [FeatureName, ...FeatureName[]]);
