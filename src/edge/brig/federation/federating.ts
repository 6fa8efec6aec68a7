import type { Config } from '../../../shared/config/index.js';
import type { Db } from '../../db/client.js';
import type { FederationDomainConfig } from './remote-config.js';
import { remotesStore } from './remotes-store.js';

/** Remotes from brig's static list, honoured while operators move to the dynamic one. */
function configuredRemotes(config: Config): FederationDomainConfig[] {
  return config.brig.optSettings.setFederationDomainConfigs.map((r) => ({
    ...r,
    restriction: { tag: 'allow_all', value: null },
  }));
}

/** Every remote this backend knows: the static list, then the dynamic one (static entries win). */
export async function knownRemotes(config: Config, db: Db): Promise<FederationDomainConfig[]> {
  const fromConfig = configuredRemotes(config);
  const known = new Set(fromConfig.map((r) => r.domain));
  const dynamic = (await remotesStore.list(db)).filter((r) => !known.has(r.domain));
  return [...fromConfig, ...dynamic];
}

/**
 * How this backend federates with `domain`: its remote entry, a `no_search` one when the strategy
 * allows every backend, or undefined when it does not federate with it.
 */
export async function federationWith(
  config: Config,
  db: Db,
  domain: string,
): Promise<FederationDomainConfig | undefined> {
  const { setFederationStrategy: strategy } = config.brig.optSettings;
  if (!config.brig.enableFederation || strategy === 'allowNone') return undefined;
  const listed = (await knownRemotes(config, db)).find((r) => r.domain === domain);
  if (listed !== undefined) return listed;
  return strategy === 'allowAll'
    ? { domain, search_policy: 'no_search', restriction: { tag: 'allow_all', value: null } }
    : undefined;
}
