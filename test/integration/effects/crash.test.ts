import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { crashBetweenChangesAndEffects, eventsOf, type StreamEvent as Event } from '../../helpers/crash.js';
import {
  bytesOf,
  claimKeyPackages,
  type MlsDevice,
  mlsDevice,
  mlsEventsOf,
  uploadKeyPackages,
} from '../../helpers/mls.js';
import { bundleBody } from '../../helpers/core-crypto.js';
import { connect, connectedTrio, createUser, type TestUser } from '../../helpers/users.js';
import { deleteClient, getConnection, postConnection, putConnection } from '../../helpers/endpoints/brig.js';
import {
  addMembers,
  getConversation,
  getMLSPublicKeys,
  postConversation,
  postMLSCommitBundle,
  putConversationAccess,
  putConversationName,
  removeMember,
} from '../../helpers/endpoints/galley.js';

/**
 * A change and its events are one unit. The backend is stopped (its runtime killed) while one
 * request of each kind of change waits right after its writes were committed, before any of its
 * events went out; after a restart on the same state, every change is there and so is every event
 * it causes, once.
 */

const D = 'example.com';

const inConv = (events: Event[], type: string, conv: string) =>
  events.filter((e) => e.type === type && e.conversation === conv);

async function group(base: string, owner: TestUser, others: TestUser[], extra: Record<string, unknown> = {}) {
  const r = await postConversation(base, owner.token, {
    name: 'G',
    qualified_users: others.map((u) => ({ id: u.id, domain: D })),
    ...extra,
  });
  expect(r.status, r.text).toBe(201);
  return r.body.qualified_id.id as string;
}

async function mlsGroup(base: string, owner: MlsDevice) {
  const r = await postConversation(base, owner.token, { protocol: 'mls', name: 'M', qualified_users: [] });
  expect(r.status, r.text).toBe(201);
  const keys = await getMLSPublicKeys(base, owner.token);
  const groupId = bytesOf(r.body.group_id);
  await owner.mls.createConversation(groupId, bytesOf(keys.body.removal.ed25519));
  return { id: r.body.qualified_id.id as string, groupId };
}

async function joinByWelcome(base: string, d: MlsDevice, conv: string) {
  const welcome = (await mlsEventsOf(base, d)).filter(
    (e) => e.type === 'conversation.mls-welcome' && e.conversation === conv,
  );
  expect(welcome.length, `welcomes of ${d.client}`).toBe(1);
  await d.mls.processWelcome(bytesOf(welcome[0]!.data));
}

describe('a crash between a change and its events', () => {
  let b: TestBackend;
  /** Where MLS clients send commits: the backend of the moment. */
  let base = '';
  let alice: TestUser, bob: TestUser, carol: TestUser, dave: TestUser, eve: TestUser;
  let a: MlsDevice, b1: MlsDevice, b2: MlsDevice, c1: MlsDevice, d1: MlsDevice;
  const conv = {} as Record<'removal' | 'addition' | 'rename' | 'access', string>;
  let m1: { id: string; groupId: Uint8Array };
  let m2: { id: string; groupId: Uint8Array };

  beforeAll(async () => {
    b = await startEditedBackend([]);
    base = b.publicUrl;
    const stateDir = b.stateDir;
    [alice, bob, carol] = await connectedTrio(base, b.internalUrl);
    [dave, eve] = [await createUser(base, b.internalUrl), await createUser(base, b.internalUrl)];
    await connect(base, alice, dave);
    expect((await postConnection(base, eve.token, { domain: D, id: alice.id })).status).toBe(201);
    conv.removal = await group(base, alice, [bob, carol]);
    conv.addition = await group(base, alice, [bob]);
    conv.rename = await group(base, alice, [bob]);
    conv.access = await group(base, alice, [bob]);

    const device = (u: TestUser) => mlsDevice(base, u, 1, D, () => base);
    [a, b1, b2, c1, d1] = [
      await device(alice),
      await device(bob),
      await device(bob),
      await device(carol),
      await device(dave),
    ];
    for (const d of [b1, b2, c1, d1]) await uploadKeyPackages(base, d, 1);
    // m1: Alice with both of Bob's clients (one is deleted in the crash); m2: Alice with Dave (Carol is added).
    m1 = await mlsGroup(base, a);
    await a.mls.addClients(m1.groupId, await claimKeyPackages(base, a, bob));
    for (const d of [b1, b2]) await joinByWelcome(base, d, m1.id);
    m2 = await mlsGroup(base, a);
    await a.mls.addClients(m2.groupId, await claimKeyPackages(base, a, dave));
    await joinByWelcome(base, d1, m2.id);
    await b.stop();

    // Each change waits at the fault point once its writes are committed; then the runtime is killed.
    b = await crashBetweenChangesAndEffects(stateDir, (fault) => {
      base = fault.publicUrl;
      return [
        removeMember(base, alice.token, { domain: D, id: conv.removal }, { domain: D, id: carol.id }),
        addMembers(
          base,
          alice.token,
          { domain: D, id: conv.addition },
          {
            qualified_users: [{ id: carol.id, domain: D }],
          },
        ),
        putConversationName(base, alice.token, { domain: D, id: conv.rename }, { name: 'renamed' }),
        putConversationAccess(
          base,
          alice.token,
          { domain: D, id: conv.access },
          {
            access: ['invite', 'code'],
            access_role: ['team_member', 'non_team_member', 'guest', 'service'],
          },
        ),
        putConnection(base, alice.token, { domain: D, id: eve.id }, { status: 'accepted' }),
        deleteClient(base, bob.token, b2.client, { password: bob.password }),
        claimKeyPackages(base, a, carol).then((kps) => a.mls.addClients(m2.groupId, kps)),
      ];
    });
    base = b.publicUrl;
  });
  afterAll(() => b?.stop());

  it('a removed member is gone, and everybody heard it once', async () => {
    const seen = await getConversation(base, alice.token, { domain: D, id: conv.removal });
    expect(seen.body.members.others.map((m: { id: string }) => m.id)).toEqual([bob.id]);
    for (const u of [alice, bob, carol]) {
      const left = inConv(await eventsOf(base, u), 'conversation.member-leave', conv.removal);
      expect(left.map((e) => e.data.qualified_user_ids)).toEqual([[{ id: carol.id, domain: D }]]);
    }
    // The unanswered request again: nothing left to do.
    expect(
      (await removeMember(base, alice.token, { domain: D, id: conv.removal }, { domain: D, id: carol.id })).status,
    ).toBe(204);
  });

  it('an added member is in, and everybody heard it once', async () => {
    const seen = await getConversation(base, carol.token, { domain: D, id: conv.addition });
    expect(seen.status).toBe(200);
    for (const u of [alice, bob, carol]) {
      const joined = inConv(await eventsOf(base, u), 'conversation.member-join', conv.addition);
      expect(joined.map((e) => e.data.users.map((m: { id: string }) => m.id))).toEqual([[carol.id]]);
    }
    const again = await addMembers(
      base,
      alice.token,
      { domain: D, id: conv.addition },
      {
        qualified_users: [{ id: carol.id, domain: D }],
      },
    );
    expect(again.status).toBe(204);
  });

  it('a rename and an access change are made and announced', async () => {
    const renamed = await getConversation(base, bob.token, { domain: D, id: conv.rename });
    expect(renamed.body.name).toBe('renamed');
    const bobs = await eventsOf(base, bob);
    expect(inConv(bobs, 'conversation.rename', conv.rename).map((e) => e.data)).toEqual([{ name: 'renamed' }]);
    const access = inConv(bobs, 'conversation.access-update', conv.access);
    expect(access.map((e) => e.data.access)).toEqual([['invite', 'code']]);
  });

  it('an accepted connection is accepted on both sides, and both heard it', async () => {
    const mine = await getConnection(base, alice.token, { domain: D, id: eve.id });
    expect(mine.body.status).toBe('accepted');
    const toEve = (await eventsOf(base, eve)).filter((e) => e.type === 'user.connection');
    expect(toEve.at(-1)?.connection.status).toBe('accepted');
    const toAlice = (await eventsOf(base, alice)).filter(
      (e) => e.type === 'user.connection' && e.connection.qualified_to.id === eve.id,
    );
    expect(toAlice.map((e) => e.connection.status)).toEqual(['pending', 'accepted']);
    const one2one = mine.body.qualified_conversation.id;
    expect((await getConversation(base, eve.token, { domain: D, id: one2one })).status).toBe(200);
  });

  it('a deleted client is announced, and the backend proposes its removal from its MLS groups', async () => {
    const removed = (await eventsOf(base, bob)).filter((e) => e.type === 'user.client-remove');
    expect(removed.map((e) => e.client.id)).toEqual([b2.client]);
    for (const d of [a, b1]) {
      const proposals = (await mlsEventsOf(base, d)).filter(
        (e) => e.type === 'conversation.mls-message-add' && e.conversation === m1.id,
      );
      expect(proposals).toHaveLength(1);
      expect(await d.mls.decrypt(m1.groupId, bytesOf(proposals[0]!.data))).toMatchObject({ kind: 'proposal' });
    }
  });

  it('an MLS commit is applied and reaches every member: its commit, its Welcome, its member-join', async () => {
    const seen = await getConversation(base, dave.token, { domain: D, id: m2.id });
    expect(seen.body.epoch).toBe(2);
    const commits = (await mlsEventsOf(base, d1)).filter(
      (e) => e.type === 'conversation.mls-message-add' && e.conversation === m2.id,
    );
    expect(commits).toHaveLength(1);
    expect(await d1.mls.decrypt(m2.groupId, bytesOf(commits[0]!.data))).toMatchObject({ kind: 'commit' });
    await joinByWelcome(base, c1, m2.id);
    expect(await c1.mls.epoch(m2.groupId)).toBe(await d1.mls.epoch(m2.groupId));
    const joins = async (u: TestUser) =>
      inConv(await eventsOf(base, u), 'conversation.member-join', m2.id).filter((e) =>
        e.data.users.some((m: { id: string }) => m.id === carol.id),
      );
    for (const u of [dave, carol]) expect(await joins(u)).toHaveLength(1);
    // Alice never got an answer: the same bundle again is answered as it would have been, and sent to nobody twice.
    const retry = await postMLSCommitBundle(base, a.token, bundleBody(a.sent!));
    expect(retry.status, retry.text).toBe(201);
    expect(retry.body.events.map((e: Event) => e.type)).toEqual(['conversation.member-join']);
    expect(await joins(dave)).toHaveLength(1);
    const again = (await mlsEventsOf(base, d1)).filter((e) => e.conversation === m2.id);
    expect(again.filter((e) => e.type === 'conversation.mls-message-add')).toHaveLength(1);
  });
});
