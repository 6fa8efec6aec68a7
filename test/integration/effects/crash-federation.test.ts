import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashBetweenChangesAndEffects, eventsOf, type StreamEvent } from '../../helpers/crash.js';
import { A, B, type FederatedPair, startPairWithConnectedUsers } from '../../helpers/federation.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * A change and its events are one unit when another backend causes it too: example.com's runtime
 * is killed while each change b.example.com asked for waits right after its writes were committed
 * (a member leaving, a member renaming a conversation owned here, a connection request, and a
 * rename by the owner of a copy, delivered from its queue). After a restart on the same state,
 * each change is there and its events went out once, also when the other backend asks again.
 */

const inConv = (events: StreamEvent[], type: string, conv: string) =>
  events.filter((e) => e.type === type && e.conversation === conv);

describe('a crash between a change another backend asked for and its events', () => {
  let pair: FederatedPair;
  /** alice: on example.com, owns `leave` and `renamedHere`; bob: on b.example.com, owns `renamedThere`. */
  let alice: TestUser, bob: TestUser;
  /** On b.example.com: asks alice to connect while her backend crashes. */
  let dave: TestUser;
  const conv = {} as Record<'leave' | 'renamedHere' | 'renamedThere', string>;

  const asAlice = () => api(pair.a.publicUrl, alice.token);
  const asBob = () => api(pair.b.publicUrl, bob.token);

  async function group(base: string, owner: TestUser, other: { id: string; domain: string }) {
    const r = await api(base, owner.token).post('/v8/conversations', { name: 'G', qualified_users: [other] });
    expect(r.status, r.text).toBe(201);
    return r.body.qualified_id.id as string;
  }

  /** Until nothing waits in a backend's queue for the other (its notifications were taken). */
  const drained = (side: 'a' | 'b') =>
    waitFor(
      async () => ((await pair[side].query('SELECT seq FROM federation_outbox')).length === 0 ? true : undefined),
      `${side}'s notifications delivered`,
      60_000,
    );

  beforeAll(async () => {
    ({ pair, alice, bob } = await startPairWithConnectedUsers());
    dave = await createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Dave' });
    conv.leave = await group(pair.a.publicUrl, alice, { id: bob.id, domain: B });
    conv.renamedHere = await group(pair.a.publicUrl, alice, { id: bob.id, domain: B });
    conv.renamedThere = await group(pair.b.publicUrl, bob, { id: alice.id, domain: A });
    await Promise.all([drained('a'), drained('b')]);
    await pair.down('a');

    let ownersRename: Promise<{ status: number; text: string }> | undefined;
    await crashBetweenChangesAndEffects(
      pair.a.stateDir,
      () => {
        // The owner's change is made at once; its notification reaches example.com from the queue.
        ownersRename = asBob().put(`/v8/conversations/${B}/${conv.renamedThere}/name`, { name: 'by the owner' });
        return [
          asBob().del(`/v8/conversations/${A}/${conv.leave}/members/${B}/${bob.id}`),
          asBob().put(`/v8/conversations/${A}/${conv.renamedHere}/name`, { name: 'by bob' }),
          api(pair.b.publicUrl, dave.token).post(`/v8/connections/${A}/${alice.id}`),
        ];
      },
      {
        notified: 1,
        start: async (faultPoint) => {
          const a = await pair.up('a', { faultPoint });
          pair.announce('a');
          return a;
        },
      },
    );
    const renamed = await ownersRename!;
    expect(renamed.status, renamed.text).toBe(200);
    // b.example.com delivers again what got no answer; example.com's own notifications go out.
    await Promise.all([drained('a'), drained('b')]);
  }, 180_000);
  afterAll(() => pair?.stop());

  it('a remote member who left is gone, and both backends heard it once', async () => {
    const seen = await asAlice().get(`/v8/conversations/${A}/${conv.leave}`);
    expect(seen.body.members.others).toEqual([]);
    for (const [base, u] of [
      [pair.a.publicUrl, alice],
      [pair.b.publicUrl, bob],
    ] as const) {
      const left = inConv(await eventsOf(base, u), 'conversation.member-leave', conv.leave);
      expect(left.map((e) => e.data.qualified_user_ids)).toEqual([[{ id: bob.id, domain: B }]]);
    }
    // Bob's copy went with him: asked again, there is nothing left to leave.
    const again = await asBob().del(`/v8/conversations/${A}/${conv.leave}/members/${B}/${bob.id}`);
    expect(again.status, again.text).toBe(404);
  });

  it("a remote member's rename is made, and both backends heard it once", async () => {
    expect((await asAlice().get(`/v8/conversations/${A}/${conv.renamedHere}`)).body.name).toBe('by bob');
    // Bob got no answer and asks again: the owner finds it made.
    expect((await asBob().put(`/v8/conversations/${A}/${conv.renamedHere}/name`, { name: 'by bob' })).status).toBe(204);
    for (const [base, u] of [
      [pair.a.publicUrl, alice],
      [pair.b.publicUrl, bob],
    ] as const) {
      const renamed = inConv(await eventsOf(base, u), 'conversation.rename', conv.renamedHere);
      expect(renamed.map((e) => e.data)).toEqual([{ name: 'by bob' }]);
    }
  });

  it("the owner's rename reaches the copy once, though the owner delivered it twice", async () => {
    expect((await asAlice().get(`/v8/conversations/${B}/${conv.renamedThere}`)).body.name).toBe('by the owner');
    const renamed = inConv(await eventsOf(pair.a.publicUrl, alice), 'conversation.rename', conv.renamedThere);
    expect(renamed.map((e) => e.data)).toEqual([{ name: 'by the owner' }]);
  });

  it('a connection request from another backend is stored, and heard once, also when asked again', async () => {
    const pending = await asAlice().get(`/v8/connections/${B}/${dave.id}`);
    expect(pending.body.status).toBe('pending');
    // Dave got no answer and asks again: his side is sent, hers stays as it is.
    const again = await api(pair.b.publicUrl, dave.token).post(`/v8/connections/${A}/${alice.id}`);
    expect(again.status, again.text).toBe(201);
    expect(again.body.status).toBe('sent');
    const toAlice = (await eventsOf(pair.a.publicUrl, alice)).filter(
      (e) => e.type === 'user.connection' && e.connection.qualified_to.id === dave.id,
    );
    expect(toAlice.map((e) => e.connection.status)).toEqual(['pending']);
  });
});
