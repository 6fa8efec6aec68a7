import { z } from '@hono/zod-openapi';
import { searchPolicy as configSearchPolicy } from '../../../shared/config/schemas/brig.js';
import { federationDomain } from '../../../shared/config/schemas/common.js';

// A schema of its own, made here: zod gives `.openapi()` only to schemas made after
// @hono/zod-openapi is loaded, and the configuration's may be older.
const searchPolicy = z.enum(configSearchPolicy.options).openapi('FederatedUserSearchPolicy');

const restriction = z
  .discriminatedUnion('tag', [
    z.object({ tag: z.literal('allow_all'), value: z.null().optional() }),
    z.object({ tag: z.literal('restrict_by_team'), value: z.array(z.uuid()) }),
  ])
  .openapi('FederationRestriction');

export const federationDomainConfig = z
  .object({
    domain: federationDomain,
    search_policy: searchPolicy,
    restriction: restriction.default({ tag: 'allow_all' }),
  })
  .openapi('FederationDomainConfig');

export type FederationDomainConfig = z.infer<typeof federationDomainConfig>;

export const federationDomainConfigs = z
  .object({
    strategy: z.enum(['allowNone', 'allowAll', 'allowList', 'allowDynamic']),
    remotes: z.array(federationDomainConfig),
    update_interval: z.int(),
  })
  .openapi('FederationDomainConfigs');
