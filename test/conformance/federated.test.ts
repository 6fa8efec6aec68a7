import { describe, expect, it } from 'vitest';
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
