import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from '../../tools/lib/bundle.js';
import { readConfigTexts } from '../../tools/lib/config-dir.js';
import { startLocalDns, type LocalDns } from '../../tools/lib/local-dns.js';
import { startEditedBackend, type TestBackend } from './backend.js';
import type { Edit } from './config-files.js';
import { createUser, type TestUser } from './users.js';
import { one2OneConvId } from '../../src/edge/galley/conversations/one2one-id.js';
import { postConnection, putConnection } from './endpoints/brig.js';

/** The shipped configurations' domains: config/ and config/b.example.com/. */
export const A = 'example.com';
export const B = 'b.example.com';

export const srvName = (domain: string) => `_svc-federator._tcp.${domain}`;

type Side = 'a' | 'b';

export interface FederatedPair {
  a: TestBackend;
  b: TestBackend;
  /** The DNS server both federators ask (`dns.set` moves or removes a backend). */
  dns: LocalDns;
  /** Stops one backend (its worker and federator); DNS still names its federator. */
  down(side: Side): Promise<void>;
  /**
   * Starts a stopped backend again on its state (same users, tokens still valid), on new ports.
   * Other backends reach it once it is announced: until then it can serve its own users only.
   * Crash tests give it a fault point (see test/helpers/crash.ts).
   */
  up(side: Side, o?: { faultPoint?: string | undefined }): Promise<TestBackend>;
  /** Points DNS at a backend's (new) federator. */
  announce(side: Side): void;
  stop(): Promise<void>;
}

/** Points a domain's SRV record at a backend's federator. */
export function announce(dns: LocalDns, domain: string, backend: TestBackend): void {
  dns.set(srvName(domain), { target: '127.0.0.1', port: backend.federator!.externalPort! });
}

/**
 * Two backends on the shipped configurations (config/ as example.com, config/b.example.com/),
 * each with its federator, certificates from the test run's local CA, and one DNS server that
 * knows both: the local two-backend setup of the README, on free ports.
 */
export async function startFederatedPair(edits: { a?: Edit[]; b?: Edit[] } = {}): Promise<FederatedPair> {
  const dns = await startLocalDns();
  const bases = { a: undefined, b: readConfigTexts(join(ROOT, 'config', B)) };
  const domains = { a: A, b: B };
  const start = (side: Side, stateDir?: string, faultPoint?: string) =>
    startEditedBackend(edits[side] ?? [], {
      dns,
      ...(bases[side] === undefined ? {} : { base: bases[side] }),
      ...(stateDir === undefined ? {} : { stateDir }),
      ...(faultPoint === undefined ? {} : { faultPoint }),
    });
  const [a, b] = await Promise.all([start('a'), start('b')]);
  const running = new Set<Side>(['a', 'b']);
  const pair: FederatedPair = {
    a,
    b,
    dns,
    down: async (side) => {
      running.delete(side);
      await pair[side].stop();
    },
    up: async (side, o = {}) => {
      pair[side] = await start(side, pair[side].stateDir, o.faultPoint);
      running.add(side);
      return pair[side];
    },
    announce: (side) => announce(dns, domains[side], pair[side]),
    stop: async () => {
      await Promise.all([...running].map((side) => pair[side].stop()));
      await dns.stop();
    },
  };
  pair.announce('a');
  pair.announce('b');
  return pair;
}

/** Edits giving a backend another federation domain (its certificate files named after it). */
function asDomain(domain: string): Edit[] {
  return [
    ['brig.yaml', ['optSettings', 'setFederationDomain'], domain],
    ['galley.yaml', ['settings', 'federationDomain'], domain],
    ['cargohold.yaml', ['settings', 'federationDomain'], domain],
    ['nginz.yaml', ['nginx_conf', 'external_env_domain'], domain],
    ['federator.yaml', ['optSettings', 'clientCertificate'], `.federation/${domain}.pem`],
    ['federator.yaml', ['optSettings', 'clientPrivateKey'], `.federation/${domain}-key.pem`],
  ];
}

/** Edits making a backend's static list name these remotes (full search). */
export const federatingWith = (...domains: string[]): Edit => [
  'brig.yaml',
  ['optSettings', 'setFederationDomainConfigs'],
  domains.map((domain) => ({ domain, search_policy: 'full_search' })),
];

/**
 * A third backend beside a pair (b.example.com's configuration under another domain), known to
 * the pair's DNS server. The pair must list it among their remotes to federate with it.
 */
export async function startThirdBackend(pair: FederatedPair, domain: string, edits: Edit[] = []): Promise<TestBackend> {
  const base = readConfigTexts(join(ROOT, 'config', B));
  const backend = await startEditedBackend([...asDomain(domain), federatingWith(A, B), ...edits], {
    dns: pair.dns,
    base,
  });
  announce(pair.dns, domain, backend);
  return backend;
}

/** Makes users of two backends connected (a asks, b accepts). */
export async function connectAcross(
  a: { user: TestUser; backend: TestBackend; domain: string },
  b: { user: TestUser; backend: TestBackend; domain: string },
): Promise<void> {
  const asked = await postConnection(a.backend.publicUrl, a.user.token, { domain: b.domain, id: b.user.id });
  expect(asked.status, asked.text).toBe(201);
  const accepted = await putConnection(
    b.backend.publicUrl,
    b.user.token,
    { domain: a.domain, id: a.user.id },
    {
      status: 'accepted',
    },
  );
  expect(accepted.status, accepted.text).toBe(200);
}

/** A federated pair with Alice on example.com and Bob on b.example.com, connected to each other. */
export async function startPairWithConnectedUsers(): Promise<{ pair: FederatedPair; alice: TestUser; bob: TestUser }> {
  const pair = await startFederatedPair();
  const [alice, bob] = await Promise.all([
    createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Alice' }),
    createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Bob' }),
  ]);
  await connectAcross({ user: alice, backend: pair.a, domain: A }, { user: bob, backend: pair.b, domain: B });
  return { pair, alice, bob };
}

/**
 * A connected user on each backend of the pair whose 1:1 (of `namespace`: Proteus or MLS) `owner`
 * owns: the owner follows from the users' ids, so users are drawn until it is the wanted one.
 */
export async function usersWhoseOne2OneLivesOn(
  pair: FederatedPair,
  namespace: string,
  owner: string,
): Promise<{ onA: TestUser; onB: TestUser }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const [onA, onB] = await Promise.all([
      createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Carol' }),
      createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Dave' }),
    ]);
    const id = await one2OneConvId(namespace, { id: onA.id, domain: A }, { id: onB.id, domain: B });
    if (id.domain !== owner) continue;
    await connectAcross({ user: onA, backend: pair.a, domain: A }, { user: onB, backend: pair.b, domain: B });
    return { onA, onB };
  }
  throw new Error(`no 1:1 owned by ${owner} in 20 draws`);
}
