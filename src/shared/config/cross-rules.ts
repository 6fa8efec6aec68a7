import type { DisabledVersion } from '../api-version.js';
import { fileOf, type Component, type Config } from './components.js';
import type { Problem } from './problems.js';

type Parsed = Partial<Config>;

function sameSet(a: readonly DisabledVersion[], b: readonly DisabledVersion[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

const show = (v: readonly DisabledVersion[]) => `[${v.map((x) => (x === 'development' ? x : `v${x}`)).join(', ')}]`;

/** Where each component keeps `disabledAPIVersions` (brig spells it `setDisabledAPIVersions`). */
const disabledVersionsOf: Partial<Record<Component, (c: Parsed) => { path: string; value?: DisabledVersion[] }>> = {
  brig: (c) => ({ path: 'optSettings.setDisabledAPIVersions', value: c.brig?.optSettings.setDisabledAPIVersions }),
  galley: (c) => ({ path: 'settings.disabledAPIVersions', value: c.galley?.settings.disabledAPIVersions }),
  cargohold: (c) => ({ path: 'settings.disabledAPIVersions', value: c.cargohold?.settings.disabledAPIVersions }),
  gundeck: (c) => ({ path: 'settings.disabledAPIVersions', value: c.gundeck?.settings.disabledAPIVersions }),
  cannon: (c) => ({ path: 'disabledAPIVersions', value: c.cannon?.disabledAPIVersions }),
  proxy: (c) => ({ path: 'disabledAPIVersions', value: c.proxy?.disabledAPIVersions }),
  spar: (c) => ({ path: 'disabledAPIVersions', value: c.spar?.disabledAPIVersions }),
};

const federationDomainOf: Partial<Record<Component, (c: Parsed) => { path: string; value?: string }>> = {
  brig: (c) => ({ path: 'optSettings.setFederationDomain', value: c.brig?.optSettings.setFederationDomain }),
  galley: (c) => ({ path: 'settings.federationDomain', value: c.galley?.settings.federationDomain }),
  cargohold: (c) => ({ path: 'settings.federationDomain', value: c.cargohold?.settings.federationDomain }),
};

const enableFederationOf: Partial<Record<Component, (c: Parsed) => { path: string; value?: boolean }>> = {
  brig: (c) => ({ path: 'enableFederation', value: c.brig?.enableFederation }),
  galley: (c) => ({ path: 'enableFederation', value: c.galley?.enableFederation }),
  cargohold: (c) => ({ path: 'enableFederation', value: c.cargohold?.enableFederation }),
  'background-worker': (c) => ({ path: 'enableFederation', value: c['background-worker']?.enableFederation }),
};

/** brig decides who sees emails; galley lists the same value among its feature flags (the seed wants every one). */
const emailVisibilityOf: Partial<Record<Component, (c: Parsed) => { path: string; value?: string }>> = {
  brig: (c) => ({ path: 'optSettings.setEmailVisibility', value: c.brig?.optSettings.setEmailVisibility }),
  galley: (c) => ({
    path: 'settings.featureFlags.emailVisibility',
    value: c.galley?.settings.featureFlags.emailVisibility,
  }),
};

/** Settings that several files carry must be equal; brig's value is the reference. */
function mustAgree<T>(
  c: Parsed,
  table: Partial<Record<Component, (c: Parsed) => { path: string; value?: T }>>,
  equal: (a: T, b: T) => boolean,
  render: (v: T) => string,
  what: string,
): Problem[] {
  const entries = Object.entries(table) as [Component, (c: Parsed) => { path: string; value?: T }][];
  const [refName, refGet] = entries[0]!;
  const ref = refGet(c);
  if (ref.value === undefined) return [];
  const refValue = ref.value;
  return entries.slice(1).flatMap(([name, get]) => {
    const { path, value } = get(c);
    if (value === undefined || equal(value, refValue)) return [];
    return [
      {
        file: fileOf(name),
        path,
        message: `${what} must equal ${fileOf(refName)} ${ref.path} ${render(refValue)} (is ${render(value)})`,
      },
    ];
  });
}

export function crossFileProblems(c: Parsed): Problem[] {
  const problems = [
    ...mustAgree(c, disabledVersionsOf, sameSet, show, 'disabled API versions'),
    ...mustAgree(
      c,
      federationDomainOf,
      (a, b) => a === b,
      (v) => `"${v}"`,
      'the federation domain',
    ),
    ...mustAgree(c, enableFederationOf, (a, b) => a === b, String, 'enableFederation'),
    ...mustAgree(
      c,
      emailVisibilityOf,
      (a, b) => a === b,
      (v) => `"${v}"`,
      'emailVisibility',
    ),
  ];
  if (c.brig?.optSettings.setEnableMLS && c.galley && !c.galley.settings.mlsPrivateKeyPaths)
    problems.push({
      file: fileOf('galley'),
      path: 'settings.mlsPrivateKeyPaths',
      message: 'required when brig enables MLS (setEnableMLS): a removal key for every signature scheme',
    });
  if (c.brig?.optSettings.setOAuthEnabled && c.nginz && c.nginz.nginx_conf.oauth_pub_key === undefined)
    problems.push({
      file: fileOf('nginz'),
      path: 'nginx_conf.oauth_pub_key',
      message:
        'required when brig enables OAuth (setOAuthEnabled): the public key OAuth access tokens are verified with',
    });
  return problems;
}
