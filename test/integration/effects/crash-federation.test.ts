import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashBetweenChangesAndEffects, eventsOf, type StreamEvent } from '../../helpers/crash.js';
import { bundleBody } from '../../helpers/core-crypto.js';
import { A, B, connectAcross, type FederatedPair, startPairWithConnectedUsers } from '../../helpers/federation.js';
import {
  bytesOf,
  claimKeyPackages,
  type MlsDevice,
  mlsDevice,
  mlsEventsOf,
  uploadKeyPackages,
} from '../../helpers/mls.js';
import { createUser, type TestUser } from '../../helpers/users.js';
import { waitFor } from '../../helpers/wait.js';
import { getConnection, postConnection } from '../../helpers/endpoints/brig.js';
import {
  getConversation,
  getMLSPublicKeys,
  postConversation,
  postMLSCommitBundle,
  putConversationName,
  removeMember,
} from '../../helpers/endpoints/galley.js';

/**
 * A change and its events are one unit when another backend causes it too: example.com's runtime
 * is killed while each change b.example.com asked for waits right after its writes were committed
 * (a member leaving, a member renaming a conversation owned here, a connection request, and a
 * rename by the owner of a copy, delivered from its queue), and while a local member's MLS commit
 * to a group with a member on b.example.com waits there too. After a restart on the same state,
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
  /**
   * An MLS group of example.com: alice's client `a1` and bob's `b1`; while example.com crashes,
   * `a1` commits the add of carol's client (on example.com too). `epoch`: the group's before it.
   */
  const mls = {} as { conv: string; groupId: Uint8Array; a1: MlsDevice; b1: MlsDevice; carol: TestUser; epoch: number };

  async function group(base: string, owner: TestUser, other: { id: string; domain: string }) {
    const r = await postConversation(base, owner.token, { name: 'G', qualified_users: [other] });
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
    const carolsPackage = await mlsGroup();
    await Promise.all([drained('a'), drained('b')]);
    await pair.down('a');

    let ownersRename: Promise<{ status: number; text: string }> | undefined;
    await crashBetweenChangesAndEffects(
      pair.a.stateDir,
      () => {
        // The owner's change is made at once; its notification reaches example.com from the queue.
        ownersRename = putConversationName(
          pair.b.publicUrl,
          bob.token,
          { domain: B, id: conv.renamedThere },
          { name: 'by the owner' },
        );
        return [
          mls.a1.mls.addClients(mls.groupId, [carolsPackage]),
          removeMember(pair.b.publicUrl, bob.token, { domain: A, id: conv.leave }, { domain: B, id: bob.id }),
          putConversationName(pair.b.publicUrl, bob.token, { domain: A, id: conv.renamedHere }, { name: 'by bob' }),
          postConnection(pair.b.publicUrl, dave.token, { domain: A, id: alice.id }),
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

  /** Sets up `mls` (alice's client made the group and added bob's); carol's key package, claimed. */
  async function mlsGroup(): Promise<Uint8Array> {
    // Alice's client posts its commits wherever example.com runs now.
    mls.a1 = await mlsDevice(pair.a.publicUrl, alice, 1, A, () => pair.a.publicUrl);
    mls.b1 = await mlsDevice(pair.b.publicUrl, bob, 1, B);
    await uploadKeyPackages(pair.b.publicUrl, mls.b1, 1);
    const created = await postConversation(pair.a.publicUrl, mls.a1.token, {
      protocol: 'mls',
      name: 'MLS',
      qualified_users: [],
    });
    expect(created.status, created.text).toBe(201);
    mls.conv = created.body.qualified_id.id;
    mls.groupId = bytesOf(created.body.group_id);
    const keys = await getMLSPublicKeys(pair.a.publicUrl, mls.a1.token);
    await mls.a1.mls.createConversation(mls.groupId, bytesOf(keys.body.removal.ed25519));
    await mls.a1.mls.addClients(mls.groupId, await claimKeyPackages(pair.a.publicUrl, mls.a1, bob, 1, B));
    expect(mls.a1.refused).toBeUndefined();
    const welcome = await waitFor(
      async () =>
        (await mlsEventsOf(pair.b.publicUrl, mls.b1)).find(
          (e) => e.type === 'conversation.mls-welcome' && e.conversation === mls.conv,
        ),
      "bob's Welcome",
    );
    await mls.b1.mls.processWelcome(bytesOf(welcome.data));
    mls.epoch = Number(await mls.a1.mls.epoch(mls.groupId));

    mls.carol = await createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Carol' });
    await connectAcross({ user: alice, backend: pair.a, domain: A }, { user: mls.carol, backend: pair.a, domain: A });
    const c1 = await mlsDevice(pair.a.publicUrl, mls.carol, 1, A);
    await uploadKeyPackages(pair.a.publicUrl, c1, 1);
    const [carols] = await claimKeyPackages(pair.a.publicUrl, mls.a1, mls.carol, 1, A);
    return carols!;
  }

  it('a remote member who left is gone, and both backends heard it once', async () => {
    const seen = await getConversation(pair.a.publicUrl, alice.token, { domain: A, id: conv.leave });
    expect(seen.body.members.others).toEqual([]);
    for (const [base, u] of [
      [pair.a.publicUrl, alice],
      [pair.b.publicUrl, bob],
    ] as const) {
      const left = inConv(await eventsOf(base, u), 'conversation.member-leave', conv.leave);
      expect(left.map((e) => e.data.qualified_user_ids)).toEqual([[{ id: bob.id, domain: B }]]);
    }
    // Bob's copy went with him: asked again, there is nothing left to leave.
    const again = await removeMember(
      pair.b.publicUrl,
      bob.token,
      { domain: A, id: conv.leave },
      { domain: B, id: bob.id },
    );
    expect(again.status, again.text).toBe(404);
  });

  it("a remote member's rename is made, and both backends heard it once", async () => {
    expect((await getConversation(pair.a.publicUrl, alice.token, { domain: A, id: conv.renamedHere })).body.name).toBe(
      'by bob',
    );
    // Bob got no answer and asks again: the owner finds it made.
    expect(
      (await putConversationName(pair.b.publicUrl, bob.token, { domain: A, id: conv.renamedHere }, { name: 'by bob' }))
        .status,
    ).toBe(204);
    for (const [base, u] of [
      [pair.a.publicUrl, alice],
      [pair.b.publicUrl, bob],
    ] as const) {
      const renamed = inConv(await eventsOf(base, u), 'conversation.rename', conv.renamedHere);
      expect(renamed.map((e) => e.data)).toEqual([{ name: 'by bob' }]);
    }
  });

  it("the owner's rename reaches the copy once, though the owner delivered it twice", async () => {
    expect((await getConversation(pair.a.publicUrl, alice.token, { domain: B, id: conv.renamedThere })).body.name).toBe(
      'by the owner',
    );
    const renamed = inConv(await eventsOf(pair.a.publicUrl, alice), 'conversation.rename', conv.renamedThere);
    expect(renamed.map((e) => e.data)).toEqual([{ name: 'by the owner' }]);
  });

  it('a connection request from another backend is stored, and heard once, also when asked again', async () => {
    const pending = await getConnection(pair.a.publicUrl, alice.token, { domain: B, id: dave.id });
    expect(pending.body.status).toBe('pending');
    // Dave got no answer and asks again: his side is sent, hers stays as it is.
    const again = await postConnection(pair.b.publicUrl, dave.token, { domain: A, id: alice.id });
    expect(again.status, again.text).toBe(201);
    expect(again.body.status).toBe('sent');
    const toAlice = (await eventsOf(pair.a.publicUrl, alice)).filter(
      (e) => e.type === 'user.connection' && e.connection.qualified_to.id === dave.id,
    );
    expect(toAlice.map((e) => e.connection.status)).toEqual(['pending']);
  });

  it("a local member's MLS commit reaches the remote member once, with its join, also when sent again", async () => {
    const commit = mls.a1.sent!.commit;
    const commits = async () =>
      (await mlsEventsOf(pair.b.publicUrl, mls.b1)).filter(
        (e) =>
          e.type === 'conversation.mls-message-add' &&
          e.conversation === mls.conv &&
          Buffer.from(bytesOf(e.data)).equals(Buffer.from(commit)),
      );
    const told = await waitFor(async () => {
      const found = await commits();
      return found.length > 0 ? found : undefined;
    }, 'the commit at b.example.com');
    expect(told).toHaveLength(1);
    expect(await mls.b1.mls.decrypt(mls.groupId, bytesOf(told[0]!.data))).toMatchObject({ kind: 'commit' });
    expect(Number(await mls.b1.mls.epoch(mls.groupId))).toBe(mls.epoch + 1);
    const seen = await getConversation(pair.a.publicUrl, alice.token, { domain: A, id: mls.conv });
    expect(seen.body.epoch).toBe(mls.epoch + 1);
    const joined = () =>
      eventsOf(pair.b.publicUrl, bob).then((events) =>
        inConv(events, 'conversation.member-join', mls.conv).filter((e) =>
          e.data.users.some((u: { qualified_id: { id: string } }) => u.qualified_id.id === mls.carol.id),
        ),
      );
    expect(await joined()).toHaveLength(1);

    // Alice's client got no answer and sends the bundle again: the same answer, nothing told again.
    const again = await postMLSCommitBundle(pair.a.publicUrl, mls.a1.token, bundleBody(mls.a1.sent!));
    expect(again.status, again.text).toBe(201);
    await drained('a');
    expect(await commits()).toHaveLength(1);
    expect(await joined()).toHaveLength(1);
  }, 60_000);
});
