import { describe, expect, it } from 'vitest';
import { proteusKeys } from '../helpers/prekeys.js';
import { setFeatureStatus } from './lib/identity-features.js';
import { eventually, federatedBackends, setRemote } from './lib/identity-federation.js';
import {
  as,
  awaitEvent,
  type Backend,
  connectUsers,
  expectError,
  expectStatus,
  getConnection,
  internal,
  postConnection,
  putConnection,
  qid,
  randomUser,
  type User,
  userSocket,
} from './lib/identity-users.js';

/**
 * wire's Test.Connection: users of example.com (`a`, wire's OwnDomain) and of b.example.com (`b`,
 * OtherDomain). Both keep each other in their dynamic remote lists, so that scenarios may
 * restrict federation to teams (and put it back); example.com allows 16 connections per user,
 * as wire's test backends do.
 */
const fed = federatedBackends({
  dynamic: true,
  a: [['brig.yaml', ['optSettings', 'setUserMaxConnections'], 16]],
});

async function statusOf(from: User, to: User): Promise<string> {
  const r = await getConnection(from, to);
  expectStatus(r, 200);
  return r.body.status;
}

const deleteUser = async (u: User) => expectStatus(await as(u).del('/self', { password: u.password }), 200);

/** wire's createOne2OneConversation: a request from a user of `owning` whose 1:1 lives there. */
async function one2OneRequest(owning: Backend, other: Backend) {
  const alice = await randomUser(owning);
  for (;;) {
    const bob = await randomUser(other);
    const r = await postConnection(alice, bob);
    expectStatus(r, 201);
    expect(r.body).toMatchObject({ status: 'sent', qualified_to: qid(bob) });
    const conv = r.body.qualified_conversation as { id: string; domain: string };
    if (conv.domain === owning.domain) return { alice, bob, conv };
    await deleteUser(bob);
  }
}

const othersIn = async (u: User, conv: { id: string; domain: string }) => {
  const r = await as(u).get(`/conversations/${conv.domain}/${conv.id}`);
  expectStatus(r, 200);
  return r.body.members.others.map((m: any) => m.qualified_id);
};

describe('Connection', () => {
  for (const owning of ['OwnDomain', 'OtherDomain'] as const)
    it(`Connection.testConnectWithRemoteUser[owning=${owning}]`, async () => {
      const [mine, theirs] = owning === 'OwnDomain' ? [fed.a, fed.b] : [fed.b, fed.a];
      const { alice, bob, conv } = await one2OneRequest(mine, theirs);
      expect(await othersIn(alice, conv)).toEqual([]);
      expectStatus(await putConnection(bob, alice, 'accepted'), 200);
      await eventually(async () => expect(await othersIn(bob, conv)).toEqual([qid(alice)]));
    });

  it('Connection.testRemoteUserGetsDeleted', async () => {
    const alice = await randomUser(fed.a);
    const connected = await randomUser(fed.b);
    await connectUsers(alice, connected);
    const pending = await randomUser(fed.b);
    expectStatus(await postConnection(alice, pending), 201);
    expect(await statusOf(alice, pending)).toBe('sent');
    await eventually(async () => expect(await statusOf(pending, alice)).toBe('pending'));
    const blocked = await randomUser(fed.b);
    expectStatus(await postConnection(alice, blocked), 201);
    await eventually(async () => expect(await statusOf(blocked, alice)).toBe('pending'));
    expectStatus(await putConnection(blocked, alice, 'blocked'), 200);
    expect(await statusOf(blocked, alice)).toBe('blocked');
    const unconnected = await randomUser(fed.b);
    await Promise.all(
      [pending, connected, blocked, unconnected].map(async (charlie) => {
        await deleteUser(charlie);
        expectStatus(await getConnection(charlie, alice), 404);
        await eventually(async () => expectStatus(await getConnection(alice, charlie), 404));
      }),
    );
  });

  it('Connection.testConnectFromIgnored[domain=other]', async () => {
    const [alice, bob] = await Promise.all([randomUser(fed.a), randomUser(fed.b)]);
    expectStatus(await postConnection(bob, alice), 201);
    await eventually(async () => expect(await statusOf(alice, bob)).toBe('pending'));
    expectStatus(await putConnection(alice, bob, 'ignored'), 200);
    expect(await statusOf(alice, bob)).toBe('ignored');
    expectStatus(await postConnection(bob, alice), 200);
    await eventually(async () => expect(await statusOf(alice, bob)).toBe('pending'));
    const accepted = await putConnection(alice, bob, 'accepted');
    expectStatus(accepted, 200);
    expect(accepted.body.status).toBe('accepted');
  });

  it('Connection.testSentFromIgnored[domain=other]', async () => {
    const [alice, bob] = await Promise.all([randomUser(fed.a), randomUser(fed.b)]);
    expectStatus(await postConnection(bob, alice), 201);
    await eventually(async () => expect(await statusOf(alice, bob)).toBe('pending'));
    expectStatus(await putConnection(alice, bob, 'ignored'), 200);
    expect(await statusOf(alice, bob)).toBe('ignored');
    expectStatus(await putConnection(bob, alice, 'cancelled'), 200);
    expect(await statusOf(alice, bob)).toBe('ignored');
    expectStatus(await putConnection(alice, bob, 'accepted'), 200);
    expect(await statusOf(alice, bob)).toBe('sent');
  });

  it('Connection.testConnectFromBlocked[domain=other]', async () => {
    const { alice, bob, conv } = await one2OneRequest(fed.a, fed.b);
    expectStatus(await postConnection(bob, alice), 200);
    expectStatus(await putConnection(alice, bob, 'blocked'), 200);
    expect(await statusOf(alice, bob)).toBe('blocked');
    expectStatus(await as(alice).get(`/conversations/${conv.domain}/${conv.id}`), 403);
    expectStatus(await postConnection(bob, alice), 200);
    expect(await statusOf(alice, bob)).toBe('blocked');
    expectStatus(await postConnection(alice, bob), 200);
    expect(await statusOf(alice, bob)).toBe('accepted');
    expect(await othersIn(alice, conv)).toEqual([qid(bob)]);
  });

  it('Connection.testSentFromBlocked[domain=other]', async () => {
    const [alice, bob] = await Promise.all([randomUser(fed.a), randomUser(fed.b)]);
    expectStatus(await postConnection(bob, alice), 201);
    await eventually(async () => expect(await statusOf(alice, bob)).toBe('pending'));
    expectStatus(await putConnection(alice, bob, 'blocked'), 200);
    expect(await statusOf(alice, bob)).toBe('blocked');
    expectStatus(await putConnection(bob, alice, 'cancelled'), 200);
    expect(await statusOf(alice, bob)).toBe('blocked');
    expectStatus(await putConnection(alice, bob, 'accepted'), 200);
    expect(await statusOf(alice, bob)).toBe('sent');
  });

  it('Connection.testCancel[domain=other]', async () => {
    const [alice, bob] = await Promise.all([randomUser(fed.a), randomUser(fed.b)]);
    expectStatus(await postConnection(alice, bob), 201);
    expect(await statusOf(alice, bob)).toBe('sent');
    expectStatus(await putConnection(alice, bob, 'cancelled'), 200);
    expect(await statusOf(alice, bob)).toBe('cancelled');
  });

  it('Connection.testConnectionLimits[domain=other]', async () => {
    const limit = 16;
    const alice = await randomUser(fed.a);
    const [charlie1, charlie2, charlie3, charlie4] = await Promise.all(
      Array.from({ length: 4 }, () => randomUser(fed.b)),
    );
    const asked = await Promise.all(Array.from({ length: limit - 1 }, () => randomUser(fed.b)));
    for (const charlie of asked) expectStatus(await postConnection(alice, charlie), 201);
    const charlie5 = asked[0]!;

    expectStatus(await postConnection(charlie1!, alice), 201);
    await eventually(async () => expectStatus(await putConnection(alice, charlie1!, 'accepted'), 200));
    await eventually(async () => expectStatus(await putConnection(alice, charlie1!, 'accepted'), 200));

    expectStatus(await postConnection(charlie2!, alice), 201);
    await eventually(async () =>
      expectError(await putConnection(alice, charlie2!, 'accepted'), 403, 'connection-limit'),
    );
    expect(await statusOf(alice, charlie2!)).toBe('pending');

    await eventually(async () => expectStatus(await putConnection(charlie5, alice, 'accepted'), 200));
    await eventually(async () => expect(await statusOf(alice, charlie5)).toBe('accepted'));

    await eventually(async () => expectError(await postConnection(alice, charlie3!), 403, 'connection-limit'));

    expectStatus(await putConnection(alice, charlie1!, 'blocked'), 200);
    expectStatus(await postConnection(alice, charlie4!), 201);
  });

  /** Runs a scenario with both backends' remote entries restored afterwards. */
  const restoringRemotes = async (scenario: () => Promise<void>) => {
    try {
      await scenario();
    } finally {
      await Promise.all([setRemote(fed.a, fed.b.domain), setRemote(fed.b, fed.a.domain)]);
    }
  };

  it('Connection.testNonFederatingRemoteTeam', () =>
    restoringRemotes(async () => {
      await setRemote(fed.a, fed.b.domain, []);
      const [alice, bob] = await Promise.all([randomUser(fed.a), randomUser(fed.b)]);
      expectError(await postConnection(alice, bob), 403, 'team-not-federating');
    }));

  it('Connection.testNonMutualFederationConnectionAttempt', () =>
    restoringRemotes(async () => {
      const [alice, bob] = await Promise.all([randomUser(fed.a), randomUser(fed.b, { team: true })]);
      await setRemote(fed.a, fed.b.domain, []);
      expectStatus(
        await internal(fed.a).post(`/i/federation/remotes/${fed.b.domain}/teams`, { team_id: bob.team }),
        200,
      );
      await setRemote(fed.b, fed.a.domain, []);
      expectError(await postConnection(alice, bob), 403, 'team-not-federating');
    }));

  it('Connection.testFederationAllowAllConnectWithRemote', async () => {
    const [alice, bob] = await Promise.all([randomUser(fed.a), randomUser(fed.b)]);
    await connectUsers(alice, bob);
  });

  it('Connection.testFederationAllowDynamicConnectWithRemote', () =>
    restoringRemotes(async () => {
      const [alice, bob] = await Promise.all([randomUser(fed.a, { team: true }), randomUser(fed.b, { team: true })]);
      await setRemote(fed.a, fed.b.domain, [bob.team!]);
      await setRemote(fed.b, fed.a.domain, [alice.team!]);
      await connectUsers(alice, bob);
    }));

  it('Connection.testFederationAllowMixedConnectWithRemote', () =>
    restoringRemotes(async () => {
      const [alice, bob] = await Promise.all([randomUser(fed.a, { team: true }), randomUser(fed.b, { team: true })]);
      await setRemote(fed.b, fed.a.domain, [alice.team!]);
      await connectUsers(alice, bob);
    }));

  for (const bobs of ['OwnDomain', 'OtherDomain'] as const)
    it(`Connection.testPendingConnectionUserDeleted[domain=${bobs}]`, async () => {
      const alice = await randomUser(fed.a);
      const bob = await randomUser(bobs === 'OwnDomain' ? fed.a : fed.b);
      const ws = await userSocket(bob);
      try {
        expectStatus(await postConnection(alice, bob), 201);
        await awaitEvent(ws, 'user.connection', (e) => e.connection.status === 'pending');
        await deleteUser(alice);
        await awaitEvent(ws, 'user.connection', (e) => e.connection.status === 'cancelled');
      } finally {
        await ws.close();
      }
    });
});

/** Sets a backend's search policy for a remote, allowing all its teams or only `teams`. */
async function setPolicy(b: Backend, remote: string, search_policy: string, teams?: string[]) {
  const r = await internal(b).put(`/i/federation/remotes/${remote}`, {
    domain: remote,
    search_policy,
    restriction: teams === undefined ? { tag: 'allow_all', value: null } : { tag: 'restrict_by_team', value: teams },
  });
  expectStatus(r, 200);
}
const restorePolicies = () => Promise.all([setRemote(fed.a, fed.b.domain), setRemote(fed.b, fed.a.domain)]);
const wordName = () => `n${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
const searchIn = async (u: User, q: string, domain: string) => {
  const r = await as(u).get(`/search/contacts?q=${encodeURIComponent(q)}&domain=${domain}`);
  expectStatus(r, 200);
  return r.body.documents.map((d: any) => d.id);
};

describe('Search across backends', () => {
  type Restriction = 'AllowAll' | 'TeamAllowed' | 'TeamNotAllowed';
  const cases: Array<[string, Restriction, Restriction, boolean, boolean]> = [
    ['no_search', 'AllowAll', 'AllowAll', false, false],
    ['no_search', 'TeamAllowed', 'TeamAllowed', false, false],
    ['exact_handle_search', 'AllowAll', 'AllowAll', true, false],
    ['exact_handle_search', 'TeamAllowed', 'TeamAllowed', true, false],
    ['exact_handle_search', 'AllowAll', 'TeamAllowed', true, false],
    ['exact_handle_search', 'TeamAllowed', 'AllowAll', true, false],
    ['exact_handle_search', 'TeamNotAllowed', 'AllowAll', false, false],
    ['exact_handle_search', 'AllowAll', 'TeamNotAllowed', false, false],
    ['full_search', 'AllowAll', 'AllowAll', true, true],
    ['full_search', 'TeamAllowed', 'TeamAllowed', true, true],
    ['full_search', 'TeamAllowed', 'AllowAll', true, true],
    ['full_search', 'AllowAll', 'TeamAllowed', true, true],
    ['full_search', 'TeamNotAllowed', 'AllowAll', false, false],
    ['full_search', 'AllowAll', 'TeamNotAllowed', false, false],
  ];

  it('Search.testFederatedUserSearch', async () => {
    try {
      for (const [policy, d1d2, d2d1, exactFound, fullFound] of cases) {
        const [u1, u2] = await Promise.all([
          randomUser(fed.a, { team: true }),
          randomUser(fed.b, { team: true, name: wordName() }),
        ]);
        expectStatus(await setFeatureStatus(u2, u2.team!, 'searchVisibilityInbound', 'enabled'), 200);
        // restricted by team: the other side's team listed only when allowed (wire adds it after)
        const teams = (r: Restriction, team: string) =>
          r === 'AllowAll' ? undefined : r === 'TeamAllowed' ? [team] : [];
        await setPolicy(fed.b, fed.a.domain, policy, teams(d2d1, u1.team!));
        await setPolicy(fed.a, fed.b.domain, policy, teams(d1d2, u2.team!));
        const handle = `h${crypto.randomUUID().replaceAll('-', '').slice(0, 14)}`;
        expectStatus(await as(u2).put('/self/handle', { handle }), 200);
        const what = `${policy} ${d1d2} ${d2d1}`;
        const byHandle = await searchIn(u1, handle, fed.b.domain);
        expect(byHandle.length > 0 ? byHandle[0] : undefined, `exact handle, ${what}`).toBe(
          exactFound ? u2.id : undefined,
        );
        const byName = await searchIn(u1, u2.name, fed.b.domain);
        expect(byName.length > 0 ? byName[0] : undefined, `full search, ${what}`).toBe(fullFound ? u2.id : undefined);
      }
    } finally {
      await restorePolicies();
    }
  });

  it('Search.testFederatedUserSearchNonTeamSearcher', async () => {
    try {
      await setPolicy(fed.b, fed.a.domain, 'full_search', []);
      await setPolicy(fed.a, fed.b.domain, 'full_search');
      const [u1, u2] = await Promise.all([randomUser(fed.a), randomUser(fed.b, { team: true, name: wordName() })]);
      expectStatus(await setFeatureStatus(u2, u2.team!, 'searchVisibilityInbound', 'enabled'), 200);
      const handle = `h${crypto.randomUUID().replaceAll('-', '').slice(0, 14)}`;
      expectStatus(await as(u2).put('/self/handle', { handle }), 200);
      expect(await searchIn(u1, handle, fed.b.domain)).toEqual([]);
      expect(await searchIn(u1, u2.name, fed.b.domain)).toEqual([]);
    } finally {
      await restorePolicies();
    }
  });

  it('Search.testFederatedUserSearchForNonTeamUser', async () => {
    try {
      await setPolicy(fed.b, fed.a.domain, 'full_search');
      await setPolicy(fed.a, fed.b.domain, 'full_search', []);
      const [u1, u2] = await Promise.all([randomUser(fed.a, { team: true }), randomUser(fed.b, { name: wordName() })]);
      const handle = `h${crypto.randomUUID().replaceAll('-', '').slice(0, 14)}`;
      expectStatus(await as(u2).put('/self/handle', { handle }), 200);
      expect(await searchIn(u1, handle, fed.b.domain)).toEqual([]);
      expect(await searchIn(u1, u2.name, fed.b.domain)).toEqual([]);
    } finally {
      await restorePolicies();
    }
  });
});

describe('Users and clients across backends', () => {
  it('User.testSupportedProtocols[OtherDomain]', async () => {
    const alice = await randomUser(fed.a);
    expect((await as(alice).get('/self')).body.supported_protocols).toEqual(['proteus']);
    const bob = await randomUser(fed.b);
    const profile = () => as(bob).get(`/users/${alice.domain}/${alice.id}`);
    const protocols = () => as(bob).get(`/users/${alice.domain}/${alice.id}/supported-protocols`);
    expect((await profile()).body.supported_protocols).toEqual(['proteus']);
    expect((await protocols()).body).toEqual(['proteus']);
    expectStatus(await as(alice).put('/self/supported-protocols', { supported_protocols: ['proteus', 'mls'] }), 200);
    expect(new Set((await profile()).body.supported_protocols)).toEqual(new Set(['proteus', 'mls']));
    expect((await protocols()).body).toEqual(['proteus', 'mls']);
    expectError(
      await as(alice).put('/self/supported-protocols', { supported_protocols: ['proteus', 'mls', 'mixed'] }),
      400,
      'bad-request',
    );
  });

  it('Client.testListClientsIfBackendIsOffline', async () => {
    const [own1, other1] = await Promise.all([randomUser(fed.a), randomUser(fed.b)]);
    await connectUsers(own1, other1);
    const client = async (u: User) => {
      const r = await as(u).post('/clients', { type: 'permanent', ...(await proteusKeys(1)), password: u.password });
      expectStatus(r, 201);
      return r.body.id as string;
    };
    const [c1, c2] = await Promise.all([client(own1), client(other1)]);
    const expected = {
      [own1.domain]: { [own1.id]: [expect.objectContaining({ id: c1 })] },
      [other1.domain]: { [other1.id]: [expect.objectContaining({ id: c2 })] },
    };
    const list = (users: Array<{ id: string; domain: string }>) =>
      as(own1).post('/users/list-clients', { qualified_users: users });
    const both = await list([qid(own1), qid(other1)]);
    expectStatus(both, 200);
    expect(both.body.qualified_user_map).toEqual(expected);
    // a backend this one federates with, but which does not answer (no such backend runs)
    const down = 'down.example.com';
    await setRemote(fed.a, down);
    try {
      const withDown = await list([qid(own1), qid(other1), { id: crypto.randomUUID(), domain: down }]);
      expectStatus(withDown, 200);
      expect(withDown.body.qualified_user_map).toEqual(expected);
    } finally {
      expectStatus(await internal(fed.a).del(`/i/federation/remotes/${down}`), 200);
    }
  });
});

describe('Federator', () => {
  const scrape = async (f: { internalUrl: URL }) => {
    const r = await fetch(new URL('/i/metrics', f.internalUrl));
    expect(r.status).toBe(200);
    return r.text();
  };
  it('Federator.testFederatorMetricsInternal', async () => {
    const federator = fed.pair.a.federator!;
    const first = await scrape(federator);
    const second = await scrape(federator);
    expect(second).not.toBe(first);
    expect(second.length).toBeGreaterThan(0);
    expect(second).toContain('# TYPE http_request_duration_seconds histogram');
  });

  it('Federator.testFederatorNumRequestsMetrics', async () => {
    // this federator names its counters svc_federator_inward/outward_requests_total (by component and
    // rpc, the outward ones by domain too); their sums are what wire counts by origin and target
    const sum = (text: string, name: string, domain?: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith(`${name}{`) && (domain === undefined || l.includes(`domain="${domain}"`)))
        .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
    const [u1, u2] = await Promise.all([randomUser(fed.a), randomUser(fed.b, { name: wordName() })]);
    const incomingBefore = sum(await scrape(fed.pair.b.federator!), 'svc_federator_inward_requests_total');
    const outgoingBefore = sum(
      await scrape(fed.pair.a.federator!),
      'svc_federator_outward_requests_total',
      fed.b.domain,
    );
    await searchIn(u1, u2.name, fed.b.domain);
    const incomingAfter = sum(await scrape(fed.pair.b.federator!), 'svc_federator_inward_requests_total');
    const outgoingAfter = sum(
      await scrape(fed.pair.a.federator!),
      'svc_federator_outward_requests_total',
      fed.b.domain,
    );
    expect(incomingAfter).toBeGreaterThanOrEqual(incomingBefore + 1);
    expect(outgoingAfter).toBeGreaterThanOrEqual(outgoingBefore + 1);
  });
});
