// Scenarios of wire-server's integration/test/Test/MLS/One2One.hs with both users on one backend.
import { describe, expect, it } from 'vitest';
import { bytesOf, type MlsDevice } from '../helpers/mls.js';
import { createUser, invitedMember, type TestUser } from '../helpers/users.js';
import { as, awaitEvent, connectedUsers, internal, pub, qOf, socketOf, team } from './lib/env.js';
import { addUsers, device, joinByWelcome, type MlsConv } from './lib/mls.js';
import { deleteClient, postConnection, putConnection } from '../helpers/endpoints/brig.js';
import { getConversation, getMLSPublicKeys, postMLSMessage } from '../helpers/endpoints/galley.js';

const one2onePath = (other: TestUser) => `/v8/one2one-conversations/example.com/${other.id}`;
const schemeOf = (d: MlsDevice) => (d.mls.suite === 2 ? 'ecdsa_secp256r1_sha256' : 'ed25519');

/** The 1:1 as a user gets it, and its group started by `d` (resetOne2OneGroup). */
async function startOne2One(d: MlsDevice, other: TestUser): Promise<{ conv: MlsConv; body: any }> {
  const r = await as(d.user).get(one2onePath(other));
  expect(r.status, r.text).toBe(200);
  const c = r.body.conversation;
  const conv: MlsConv = { id: c.qualified_id.id, qualified_id: c.qualified_id, groupId: bytesOf(c.group_id), body: c };
  await d.mls.createConversation(conv.groupId, bytesOf(r.body.public_keys.removal[schemeOf(d)]));
  return { conv, body: r.body };
}

describe('MLS 1:1 conversations', () => {
  it('MLS.One2One.testGetMLSOne2OneLocalV5', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const legacy = (u: TestUser, o: TestUser) => as(u).get(`/v5/conversations/one2one/example.com/${o.id}`);
    const mine = await legacy(alice, bob);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toMatchObject({ type: 2, epoch: 0, cipher_suite: 1 });
    expect(mine.body.members.others).toEqual([]);
    expect(mine.body.members.self).toMatchObject({ conversation_role: 'wire_member', qualified_id: qOf(alice) });
    const theirs = await legacy(bob, alice);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toMatchObject({ type: 2, qualified_id: mine.body.qualified_id, epoch: 0, cipher_suite: 1 });
  });

  it('MLS.One2One.testGetMLSOne2One[OwnDomain]', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const r = await as(alice).get(one2onePath(bob));
    expect(r.status, r.text).toBe(200);
    expect(r.body.public_keys).toEqual((await getMLSPublicKeys(pub, alice.token)).body);
    const conv = r.body.conversation;
    expect(conv).toMatchObject({ type: 2, epoch: 0 });
    expect(conv).not.toHaveProperty('cipher_suite');
    expect(conv.members.others).toEqual([]);
    expect(conv.members.self).toMatchObject({ conversation_role: 'wire_member', qualified_id: qOf(alice) });
    const other = await as(bob).get(one2onePath(alice));
    expect(other.body.conversation).toMatchObject({ type: 2, qualified_id: conv.qualified_id, epoch: 0 });
    expect(other.body.public_keys).toEqual(r.body.public_keys);
    expect(other.body.conversation).not.toHaveProperty('cipher_suite');
  });

  it('MLS.One2One.testMLSOne2OneOtherMember[domain=own]', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [a1, b1] = await Promise.all([device(alice, 0), device(bob)]);
    const { conv } = await startOne2One(a1, bob);
    expect((await as(bob).get(one2onePath(alice))).body.conversation.qualified_id).toEqual(conv.qualified_id);
    const ws = await socketOf(bob, b1.client);
    const sent = await addUsers(a1, conv, [bob]);
    expect(sent.refused, sent.refused?.text).toBeUndefined();
    const welcome = await awaitEvent(ws, 'conversation.mls-welcome');
    expect(welcome.data).toBe(Buffer.from(sent.bundle!.welcome!).toString('base64'));
    await ws.close();
    for (const [self, other] of [
      [alice, bob],
      [bob, alice],
    ] as const) {
      const viaOne2One = (await as(self).get(one2onePath(other))).body.conversation;
      expect(viaOne2One.members.others.map((m: any) => m.qualified_id)).toEqual([qOf(other)]);
      const viaConv = await getConversation(pub, self.token, { domain: 'example.com', id: conv.id });
      expect(viaConv.body.members.others.map((m: any) => m.qualified_id)).toEqual([qOf(other)]);
    }
  });

  it('MLS.One2One.testMLSOne2OneRemoveClientLocalV5', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [a1, b1] = await Promise.all([device(alice, 0, 1), device(bob, 1, 1)]);
    const legacy = await as(alice).get(`/v5/conversations/one2one/example.com/${bob.id}`);
    expect(legacy.status).toBe(200);
    const conv: MlsConv = {
      id: legacy.body.qualified_id.id,
      qualified_id: legacy.body.qualified_id,
      groupId: bytesOf(legacy.body.group_id),
      body: legacy.body,
    };
    const keys = (await as(alice).get('/v5/mls/public-keys')).body;
    await a1.mls.createConversation(conv.groupId, bytesOf(keys.removal.ed25519));
    expect((await addUsers(a1, conv, [bob])).refused).toBeUndefined();
    const ws = await socketOf(alice);
    expect((await deleteClient(pub, bob.token, b1.client, { password: bob.password })).status).toBe(200);
    const e = await awaitEvent(ws, 'conversation.mls-message-add');
    expect(e.conversation).toBe(conv.id);
    expect(e.from).toBe(bob.id);
    await ws.close();
    expect(await a1.mls.decrypt(conv.groupId, bytesOf(e.data))).toEqual({ kind: 'proposal' });
  });

  it('MLS.One2One.testGetMLSOne2OneUnconnected[OwnDomain]', async () => {
    const [alice, bob] = await Promise.all([createUser(pub, internal), createUser(pub, internal)]);
    expect((await as(alice).get(one2onePath(bob))).status).toBe(403);
  });

  it('MLS.One2One.testMLSOne2OneBlocked[OwnDomain]', async () => {
    const [alice, bob] = await Promise.all([createUser(pub, internal), createUser(pub, internal)]);
    expect((await postConnection(pub, bob.token, { domain: 'example.com', id: alice.id })).status).toBe(201);
    expect(
      (await putConnection(pub, alice.token, { domain: 'example.com', id: bob.id }, { status: 'blocked' })).status,
    ).toBe(200);
    expect((await as(alice).get(one2onePath(bob))).status).toBe(403);
    expect((await as(bob).get(one2onePath(alice))).status).toBe(403);
  });

  it('MLS.One2One.testMLSOne2OneBlockedAfterConnected[domain=own]', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [a1, b1] = await Promise.all([device(alice, 0), device(bob)]);
    const { conv } = await startOne2One(a1, bob);
    expect((await addUsers(a1, conv, [bob])).refused).toBeUndefined();
    await joinByWelcome(b1, conv);
    let ws = await socketOf(bob, b1.client);
    expect(
      (await putConnection(pub, alice.token, { domain: 'example.com', id: bob.id }, { status: 'blocked' })).status,
    ).toBe(200);
    await expect(ws.next(() => true, 1000)).rejects.toThrow();
    await ws.close();
    expect((await as(alice).get(one2onePath(bob))).status).toBe(403);
    ws = await socketOf(alice, a1.client);
    const message = await b1.mls.encrypt(conv.groupId, 'hello, world, again');
    expect((await postMLSMessage(pub, b1.token, message)).status).toBe(201);
    await expect(ws.next(() => true, 1000)).rejects.toThrow();
    await ws.close();
  });

  it('MLS.One2One.testGetMLSOne2OneSameTeam', async () => {
    const { owner } = await team();
    const bob = await invitedMember(pub, owner);
    expect((await as(owner).get(one2onePath(bob))).status).toBe(200);
  });

  for (const suite of [1, 2]) {
    it(`MLS.One2One.testMLSOne2One[suite=0x000${suite},domain=own]`, async () => {
      const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
      const [a1, b1] = await Promise.all([device(alice, 0, suite), device(bob, 1, suite)]);
      const { conv } = await startOne2One(a1, bob);
      let ws = await socketOf(bob, b1.client);
      const sent = await addUsers(a1, conv, [bob]);
      expect(sent.refused, sent.refused?.text).toBeUndefined();
      const welcome = await awaitEvent(ws, 'conversation.mls-welcome');
      expect(welcome.data).toBe(Buffer.from(sent.bundle!.welcome!).toString('base64'));
      await awaitEvent(ws, 'conversation.member-join');
      await ws.close();
      ws = await socketOf(bob, b1.client);
      const message = await a1.mls.encrypt(conv.groupId, 'hello, world');
      expect((await postMLSMessage(pub, a1.token, message)).status).toBe(201);
      const got = await awaitEvent(ws, 'conversation.mls-message-add');
      expect(got.data).toBe(Buffer.from(message).toString('base64'));
      await ws.close();
      await a1.mls.updateKeyingMaterial(conv.groupId);
      expect(a1.refused, a1.refused?.text).toBeUndefined();
      const after = await as(alice).get(one2onePath(bob));
      expect(after.body.conversation.cipher_suite).toBe(suite);
    });
  }
});
