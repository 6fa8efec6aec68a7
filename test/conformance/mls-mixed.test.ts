// The mixed-protocol scenarios of wire-server's Test/MLS.hs with the second user on the same
// backend (their `[secondDomain=OwnDomain]` cases).
import { describe, expect, it } from 'vitest';
import { bytesOf, type MlsDevice } from '../helpers/mls.js';
import { connect, createUser, type TestUser } from '../helpers/users.js';
import { as, awaitEvent, internal, newConv, pub, qOf, socketOf, team } from './lib/env.js';
import {
  addUsers,
  claimed,
  createGroup,
  device,
  joinByWelcome,
  type MlsConv,
  removeDevices,
  sendMessage,
} from './lib/mls.js';

const path = (conv: { id: string; domain: string }) => `/v8/conversations/${conv.domain}/${conv.id}`;
const putProtocol = (u: TestUser, conv: { id: string; domain: string }, protocol: string) =>
  as(u).put(`${path(conv)}/protocol`, { protocol });

/** A team owner alice, users bob and charlie connected to her, and alice's team conversation with bob (and more). */
async function mixedSetup(o: { receiptMode?: number; charlie?: boolean; mixed?: boolean } = {}) {
  const { owner: alice, tid } = await team();
  const bob = await createUser(pub, internal);
  const charlie = await createUser(pub, internal);
  await connect(pub, alice, bob);
  await connect(pub, alice, charlie);
  await connect(pub, bob, charlie);
  const conv = (
    await newConv(alice, {
      qualified_users: o.charlie ? [qOf(bob), qOf(charlie)] : [qOf(bob)],
      team: { teamid: tid, managed: false },
      ...(o.receiptMode === undefined ? {} : { receipt_mode: o.receiptMode }),
    })
  ).qualified_id as { id: string; domain: string };
  if (o.mixed) expect((await putProtocol(bob, conv, 'mixed')).status).toBe(200);
  return { alice, bob, charlie, conv };
}

/** alice's group of the mixed conversation (createGroup with its group id). */
async function mixedGroup(a1: MlsDevice, conv: { id: string; domain: string }): Promise<MlsConv> {
  const r = await as(a1.user).get(path(conv));
  expect(r.body.protocol).toBe('mixed');
  return createGroup(a1, conv, r.body.group_id);
}

describe('MLS mixed protocol', () => {
  it('MLS.testMixedProtocolNonTeam[OwnDomain]', async () => {
    const [alice, bob] = await Promise.all([createUser(pub, internal), createUser(pub, internal)]);
    await connect(pub, alice, bob);
    const conv = (await newConv(alice, { qualified_users: [qOf(bob)] })).qualified_id;
    expect((await putProtocol(bob, conv, 'mixed')).status).toBe(403);
  });

  it('MLS.testMixedProtocolUpgrade[OwnDomain]', async () => {
    const { alice, bob, charlie, conv } = await mixedSetup({ receiptMode: 7, charlie: true });
    expect((await putProtocol(bob, conv, 'mls')).status).toBe(403);
    const wss = await Promise.all([socketOf(alice), socketOf(charlie)]);
    const r = await putProtocol(bob, conv, 'mixed');
    expect(r.status, r.text).toBe(200);
    expect(r.body.qualified_conversation).toEqual(conv);
    expect(r.body.data.protocol).toBe('mixed');
    for (const ws of wss) {
      expect((await awaitEvent(ws, 'conversation.protocol-update')).data.protocol).toBe('mixed');
      await ws.close();
    }
    const seen = await as(alice).get(path(conv));
    expect(seen.body).toMatchObject({ protocol: 'mixed', epoch: 0, receipt_mode: 7 });
    expect((await putProtocol(alice, conv, 'mixed')).status).toBe(204);
    expect((await putProtocol(bob, conv, 'proteus')).status).toBe(403);
    expect((await putProtocol(bob, conv, 'invalid')).status).toBe(400);
  });

  for (const suite of [1, 2]) {
    it(`MLS.testMixedProtocolAddUsers[OwnDomain,suite=0x000${suite}]`, async () => {
      const { alice, bob, conv } = await mixedSetup({ mixed: true });
      expect((await as(alice).get(path(conv))).body.epoch).toBe(0);
      const a1 = await device(alice, 0, suite);
      const b1 = await device(bob, 1, suite);
      const group = await mixedGroup(a1, conv);
      const ws = await socketOf(bob);
      const sent = await addUsers(a1, group, [bob]);
      expect(sent.refused, sent.refused?.text).toBeUndefined();
      const welcome = await awaitEvent(ws, 'conversation.mls-welcome');
      expect(welcome.data).toBe(Buffer.from(sent.bundle!.welcome!).toString('base64'));
      await ws.close();
      void b1;
      const after = await as(alice).get(path(conv));
      expect(after.body).toMatchObject({ epoch: 1, cipher_suite: suite });
    });
  }

  it('MLS.testMixedProtocolUserLeaves[OwnDomain]', async () => {
    const { alice, bob, conv } = await mixedSetup({ mixed: true });
    const [a1, b1] = await Promise.all([device(alice, 0), device(bob)]);
    const group = await mixedGroup(a1, conv);
    expect((await addUsers(a1, group, [bob])).refused).toBeUndefined();
    void b1;
    const ws = await socketOf(alice);
    const left = await as(bob).del(`${path(conv)}/members/${conv.domain}/${bob.id}`);
    expect(left.status, left.text).toBe(200);
    const e = await awaitEvent(ws, 'conversation.mls-message-add');
    await ws.close();
    expect(await a1.mls.decrypt(group.groupId, bytesOf(e.data))).toEqual({ kind: 'proposal' });
  });

  it('MLS.testMixedProtocolAddPartialClients[OwnDomain]', async () => {
    const { alice, bob, conv } = await mixedSetup({ mixed: true });
    const a1 = await device(alice, 0);
    const [b1, b2] = await Promise.all([device(bob, 2), device(bob, 2)]);
    const group = await mixedGroup(a1, conv);
    const first = (await claimed(a1, bob)).filter((k) => k.client === b1.client).map((k) => k.kp);
    await a1.mls.addClients(group.groupId, first);
    expect(a1.refused, a1.refused?.text).toBeUndefined();
    await joinByWelcome(b1, group);
    const second = (await claimed(b1, bob)).filter((k) => k.client === b2.client).map((k) => k.kp);
    await b1.mls.addClients(group.groupId, second);
    expect(b1.refused, b1.refused?.text).toBeUndefined();
  });

  it('MLS.testMixedProtocolRemovePartialClients[OwnDomain]', async () => {
    const { alice, bob, conv } = await mixedSetup({ mixed: true });
    const a1 = await device(alice, 0);
    const [b1, b2] = await Promise.all([device(bob), device(bob)]);
    const group = await mixedGroup(a1, conv);
    expect((await addUsers(a1, group, [bob])).refused).toBeUndefined();
    void b2;
    const sent = await removeDevices(a1, group, [b1]);
    expect(sent.refused, sent.refused?.text).toBeUndefined();
  });

  it('MLS.testMixedProtocolAppMessagesAreDenied[OwnDomain]', async () => {
    const { alice, bob, conv } = await mixedSetup({ mixed: true });
    const [a1, b1] = await Promise.all([device(alice, 0), device(bob)]);
    const group = await mixedGroup(a1, conv);
    expect((await addUsers(a1, group, [bob])).refused).toBeUndefined();
    await joinByWelcome(b1, group);
    expect(await sendMessage(b1, group, 'hello, world')).toMatchObject({
      status: 422,
      body: { label: 'mls-unsupported-message' },
    });
  });
});
