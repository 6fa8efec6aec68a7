// Scenarios of wire-server's integration/test/Test/MLS.hs that one backend plays with core-crypto clients.
import { describe, expect, it } from 'vitest';
import { bytesOf, claimKeyPackages, uploadKeyPackages } from '../helpers/mls.js';
import type { TestUser } from '../helpers/users.js';
import { as, awaitEvent, connectedUsers, newConv, pub, qOf, socketOf } from './lib/env.js';
import { addAndJoin, addUsers, claimed, createGroup, device, mlsConv, removeDevices, updateCommit } from './lib/mls.js';
import { deleteSelf } from '../helpers/endpoints/brig.js';
import {
  addMembers,
  getSelfConversation,
  getSubConversation,
  listConversationIds,
  postMLSMessage,
} from '../helpers/endpoints/galley.js';

/** Whether a user finds the conversation among theirs (getAllConvs). */
async function lists(u: TestUser, convId: string): Promise<boolean> {
  const r = await listConversationIds(pub, u.token, { size: 1000 });
  expect(r.status, r.text).toBe(200);
  return r.body.qualified_conversations.some((c: { id: string }) => c.id === convId);
}

describe('MLS', () => {
  it('MLS.testSendMessageNoReturnToSender', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [a1, a2, b1, b2] = await Promise.all([device(alice, 0), device(alice), device(bob), device(bob)]);
    const conv = await mlsConv(a1);
    await addAndJoin(a1, conv, [alice, bob], [a2, b1, b2]);
    const sockets = await Promise.all([a1, a2, b1, b2].map((d) => socketOf(d.user, d.client)));
    const message = await a1.mls.encrypt(conv.groupId, 'hello, bob');
    const r = await postMLSMessage(pub, a1.token, message);
    expect(r.status, r.text).toBe(201);
    const data = Buffer.from(message).toString('base64');
    for (const ws of sockets.slice(1)) {
      const e = await awaitEvent(ws, 'conversation.mls-message-add', (x) => x.data === data);
      expect(e.data).toBe(data);
    }
    await expect(
      sockets[0]!.next(
        (n: any) => n?.payload?.[0]?.type === 'conversation.mls-message-add' && n.payload[0].data === data,
        500,
      ),
    ).rejects.toThrow();
    await Promise.all(sockets.map((s) => s.close()));
  });

  it('MLS.testPastStaleApplicationMessage[OwnDomain]', async () => {
    const [alice, bob, charlie, dave, eve] = (await connectedUsers(5)) as TestUser[];
    const [a1, b1] = await Promise.all([device(alice!, 0), device(bob!)]);
    await Promise.all([device(charlie!), device(dave!), device(eve!)]);
    const conv = await mlsConv(a1);
    await addAndJoin(a1, conv, [bob!], [b1]);
    const msg1 = await b1.mls.encrypt(conv.groupId, 'hi alice');
    const msg2 = await b1.mls.encrypt(conv.groupId, 'hi alice');
    expect((await addUsers(a1, conv, [charlie!])).refused).toBeUndefined();
    expect((await addUsers(a1, conv, [dave!])).refused).toBeUndefined();
    expect((await postMLSMessage(pub, b1.token, msg1)).status).toBe(201);
    expect((await addUsers(a1, conv, [eve!])).refused).toBeUndefined();
    expect((await postMLSMessage(pub, b1.token, msg2)).status).toBe(409);
  });

  for (const suite of [1, 2]) {
    it(`MLS.testAddUserSimple[suite=0x000${suite},ctype=basic]`, async () => {
      const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
      const [a1] = await Promise.all([device(alice, 0, suite), device(bob, 1, suite), device(bob, 1, suite)]);
      const ws = await socketOf(alice);
      const conv = await mlsConv(a1);
      const created = await awaitEvent(ws, 'conversation.create', (e) => e.qualified_conversation.id === conv.id);
      expect(created.data.epoch).toBe(0);
      expect(created.data.cipher_suite).toBe(1);
      await ws.close();
      const sent = await addUsers(a1, conv, [bob]);
      expect(sent.refused, sent.refused?.text).toBeUndefined();
      const events = a1.accepted!.body.events;
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        qualified_conversation: conv.qualified_id,
        type: 'conversation.member-join',
        from: alice.id,
      });
      expect(events[0].data.users.map((m: any) => m.qualified_id)).toEqual([qOf(bob)]);
      expect(await lists(bob, conv.id)).toBe(true);
    });
  }

  it('MLS.testCreateSubConv[suite=0x0001]', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const alices = await Promise.all(Array.from({ length: 5 }, (_, i) => device(alice, i === 0 ? 3 : 3)));
    await Promise.all([device(bob, 3), device(bob, 3)]);
    const a1 = alices[0]!;
    const conv = await mlsConv(a1);
    expect((await addUsers(a1, conv, [alice, bob])).refused).toBeUndefined();
    const sub = await getSubConversation(pub, alice.token, { domain: 'example.com', id: conv.id }, 'conference');
    expect(sub.status, sub.text).toBe(200);
    expect(sub.body).toMatchObject({ parent_qualified_id: conv.qualified_id, subconv_id: 'conference', epoch: 0 });
    const subConv = await createGroup(a1, conv.qualified_id, sub.body.group_id);
    expect((await updateCommit(a1, subConv)).refused).toBeUndefined();
    const after = await getSubConversation(pub, alice.token, { domain: 'example.com', id: conv.id }, 'conference');
    expect(after.body.epoch).toBe(1);
    expect(after.body.members).toEqual([{ user_id: alice.id, client_id: a1.client, domain: 'example.com' }]);
  });

  it('MLS.testCreateSubConvProteus', async () => {
    const [alice] = (await connectedUsers(1)) as [TestUser];
    const conv = await newConv(alice);
    const r = await getSubConversation(
      pub,
      alice.token,
      { domain: 'example.com', id: conv.qualified_id.id },
      'conference',
    );
    expect(r.status).toBe(404);
  });

  it('MLS.testFirstCommitAllowsPartialAdds', async () => {
    const [alice] = (await connectedUsers(1)) as [TestUser];
    const a1 = await device(alice, 1);
    const a2 = await device(alice, 2);
    await device(alice, 2);
    const conv = await mlsConv(a1);
    // The first commit adds only alice2's key package, not alice3's.
    const kps = (await claimed(a1, alice)).filter((k) => k.client === a2.client).map((k) => k.kp);
    expect(kps).toHaveLength(1);
    await expect(a1.mls.addClients(conv.groupId, kps)).rejects.toThrow();
    expect(a1.refused).toMatchObject({ status: 409, body: { label: 'mls-client-mismatch' } });
  });

  it('MLS.testAddUserPartial', async () => {
    const [alice, bob, charlie] = (await connectedUsers(3)) as [TestUser, TestUser, TestUser];
    const a1 = await device(alice, 0);
    await Promise.all([device(bob), device(bob), device(charlie), device(charlie)]);
    const bob3 = await device(bob, 0);
    const conv = await mlsConv(a1);
    const kps = [...(await claimKeyPackages(pub, a1, bob)), ...(await claimKeyPackages(pub, a1, charlie))];
    await uploadKeyPackages(pub, bob3, 1);
    await expect(a1.mls.addClients(conv.groupId, kps)).rejects.toThrow();
    expect(a1.refused).toMatchObject({ status: 409, body: { label: 'mls-client-mismatch' } });
  });

  it('MLS.testRemoveClientsIncomplete', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [a1, b1, b2] = await Promise.all([device(alice, 0), device(bob), device(bob)]);
    const conv = await mlsConv(a1);
    await addAndJoin(a1, conv, [bob], [b1, b2]);
    const sent = await removeDevices(a1, conv, [b1]);
    expect(sent.refused).toMatchObject({ status: 409, body: { label: 'mls-client-mismatch' } });
  });

  it('MLS.testAdminRemovesUserFromConv[suite=0x0001]', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [a1, b1, b2] = await Promise.all([device(alice, 0), device(bob), device(bob)]);
    const conv = await mlsConv(a1);
    await addAndJoin(a1, conv, [bob], [b1, b2]);
    const sent = await removeDevices(a1, conv, [b1, b2]);
    expect(sent.refused, sent.refused?.text).toBeUndefined();
    const events = a1.accepted!.body.events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      qualified_conversation: conv.qualified_id,
      type: 'conversation.member-leave',
      from: alice.id,
    });
    expect(events[0].data.qualified_user_ids).toEqual([qOf(bob)]);
    expect(await lists(bob, conv.id)).toBe(false);
  });

  it('MLS.testLocalWelcome', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [a1, b1] = await Promise.all([device(alice, 0), device(bob)]);
    const conv = await mlsConv(a1);
    const ws = await socketOf(bob, b1.client);
    const sent = await addUsers(a1, conv, [bob]);
    expect(sent.refused).toBeUndefined();
    const welcome = await awaitEvent(ws, 'conversation.mls-welcome');
    expect(welcome.qualified_conversation).toEqual(conv.qualified_id);
    expect(welcome.from).toBe(alice.id);
    expect(welcome.data).toBe(Buffer.from(sent.bundle!.welcome!).toString('base64'));
    await ws.close();
    const events = a1.accepted!.body.events;
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('conversation.member-join');
    expect(events[0].qualified_conversation).toEqual(conv.qualified_id);
    expect(events[0].data.users.map((u: any) => u.qualified_id)).toEqual([qOf(bob)]);
  });

  it('MLS.testAddUsersDirectlyShouldFail', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const conv = await newConv(alice, { protocol: 'mls' });
    const r = await addMembers(
      pub,
      alice.token,
      { domain: 'example.com', id: conv.qualified_id.id },
      {
        qualified_users: [qOf(bob)],
      },
    );
    expect(r).toMatchObject({ status: 403, body: { label: 'invalid-op' } });
  });

  it('MLS.testSelfConversation[NoVersion5]', async () => {
    const [alice] = (await connectedUsers(1)) as [TestUser];
    const [creator] = await Promise.all([device(alice, 0), device(alice), device(alice)]);
    const self = await getSelfConversation(pub, alice.token);
    expect(self.status).toBe(200);
    expect(self.body.epoch).toBe(0);
    expect(self.body).not.toHaveProperty('cipher_suite');
    const conv = await createGroup(creator, self.body.qualified_id, self.body.group_id);
    expect((await addUsers(creator, conv, [alice])).refused).toBeUndefined();
    const fresh = await device(alice);
    const info = await fetch(`${pub}/v8/conversations/example.com/${conv.id}/groupinfo`, {
      headers: { authorization: `Bearer ${fresh.token}` },
    });
    expect(info.status).toBe(200);
    await fresh.mls.joinByExternalCommit(new Uint8Array(await info.arrayBuffer()));
    expect(fresh.refused, fresh.refused?.text).toBeUndefined();
  });

  it('MLS.testSelfConversation[Version5]', async () => {
    const [alice] = (await connectedUsers(1)) as [TestUser];
    const [creator] = await Promise.all([device(alice, 0), device(alice), device(alice)]);
    const self = await as(alice).get('/v5/conversations/mls-self');
    expect(self.status).toBe(200);
    expect(self.body.epoch).toBe(0);
    expect(self.body.cipher_suite).toBe(1);
    const conv = await createGroup(creator, self.body.qualified_id, self.body.group_id);
    expect((await addUsers(creator, conv, [alice])).refused).toBeUndefined();
  });

  it('MLS.testBackendRemoveProposal[suite=0x0001,domain=OwnDomain]', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [a1, b1, b2] = await Promise.all([device(alice, 0), device(bob), device(bob)]);
    const conv = await mlsConv(a1);
    await addAndJoin(a1, conv, [bob], [b1, b2]);
    const ws = await socketOf(alice, a1.client);
    expect((await deleteSelf(pub, bob.token, { password: bob.password })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const e = await awaitEvent(ws, 'conversation.mls-message-add');
      expect(await a1.mls.decrypt(conv.groupId, bytesOf(e.data))).toEqual({ kind: 'proposal' });
    }
    await ws.close();
    const committed = await a1.mls.commitPendingProposals(conv.groupId);
    expect(committed).toBeDefined();
    expect(a1.refused, a1.refused?.text).toBeUndefined();
    expect(a1.accepted!.body.events).toEqual([]);
  });
});
