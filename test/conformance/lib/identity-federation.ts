import { afterAll, beforeAll, expect } from 'vitest';
import type { Edit } from '../../helpers/config-files.js';
import { A, B, type FederatedPair, startFederatedPair } from '../../helpers/federation.js';
import { api } from '../../helpers/users.js';
import type { Backend } from './identity-users.js';

/** Edits making a backend keep its remotes in its database only (wire's `allowDynamic` test backends). */
const dynamicRemotes: Edit[] = [
  ['brig.yaml', ['optSettings', 'setFederationStrategy'], 'allowDynamic'],
  ['brig.yaml', ['optSettings', 'setFederationDomainConfigs'], []],
];

/** A remote entry as brig's internal API takes it (`teams`: restricted to these teams). */
const remoteEntry = (domain: string, teams?: string[]) => ({
  domain,
  search_policy: 'full_search',
  restriction: teams === undefined ? { tag: 'allow_all', value: null } : { tag: 'restrict_by_team', value: teams },
});

/** Sets how a backend federates with a remote (its dynamic list). */
export async function setRemote(b: Backend, domain: string, teams?: string[]): Promise<void> {
  const r = await api(b.internalUrl).post('/i/federation/remotes', remoteEntry(domain, teams));
  expect(r.status, r.text).toBe(200);
}

/**
 * Two federating backends for the describe block (example.com and b.example.com), started once
 * before its scenarios. With `dynamic`, each lists the other in its database (allowing all teams).
 */
export function federatedBackends(o: { a?: Edit[]; b?: Edit[]; dynamic?: boolean } = {}): {
  a: Backend;
  b: Backend;
  pair: FederatedPair;
} {
  const rig = {} as { a: Backend; b: Backend; pair: FederatedPair };
  beforeAll(async () => {
    const extra = o.dynamic ? dynamicRemotes : [];
    rig.pair = await startFederatedPair({ a: [...extra, ...(o.a ?? [])], b: [...extra, ...(o.b ?? [])] });
    rig.a = { publicUrl: rig.pair.a.publicUrl, internalUrl: rig.pair.a.internalUrl, domain: A };
    rig.b = { publicUrl: rig.pair.b.publicUrl, internalUrl: rig.pair.b.internalUrl, domain: B };
    if (o.dynamic) await Promise.all([setRemote(rig.a, B), setRemote(rig.b, A)]);
  }, 120_000);
  afterAll(() => rig.pair?.stop());
  return rig;
}

/** Polls until `probe` passes (wire's `waitForResponse`, for what crosses backends asynchronously). */
export async function eventually(probe: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await probe();
      return;
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
