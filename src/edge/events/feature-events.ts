import { z } from 'zod';
import { registerEvent } from './registry.js';

/** `feature-config.update`: a team feature's new value, sent to the team's members. */
const schema = z.object({
  type: z.literal('feature-config.update'),
  name: z.string(),
  team: z.string(),
  data: z.object({
    status: z.enum(['enabled', 'disabled']),
    lockStatus: z.enum(['locked', 'unlocked']),
    ttl: z.literal('unlimited'),
    config: z.record(z.string(), z.unknown()).optional(),
  }),
});
registerEvent('feature-config.update', schema);

export type FeatureConfigUpdate = z.infer<typeof schema>;

export const featureConfigUpdate = (
  team: string,
  name: string,
  data: FeatureConfigUpdate['data'],
): FeatureConfigUpdate => ({
  type: 'feature-config.update',
  name,
  team,
  data,
});
