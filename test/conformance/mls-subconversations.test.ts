// Scenarios of wire-server's integration/test/Test/MLS/SubConversation.hs that one backend can play.
import { describe, expect, it } from 'vitest';
import { bytesOf, type MlsDevice, mlsEventsOf } from '../helpers/mls.js';
import type { TestUser } from '../helpers/users.js';
import { as, awaitEvent, connectedUsers, pub, socketOf } from './lib/env.js';
import { addAndJoin, addUsers, device, type MlsConv, mlsConv, updateCommit } from './lib/mls.js';
import { getMLSPublicKeys, getOne2OneConversation } from '../helpers/endpoints/galley.js';

const subPath = (conv: { qualified_id: { id: string; domain: string } }, sub: string) =>
  `/v8/conversations/${conv.qualified_id.domain}/${conv.qualified_id.id}/subconversations/${sub}`;

/** The subconversation's group started by a device with its first commit (createSubConv). */
async function createSubConv(d: MlsDevice, parent: MlsConv, sub: string, removalKey?: Uint8Array): Promise<MlsConv> {
  const r = await as(d.user).get(subPath(parent, sub));
  expect(r.status, r.text).toBe(200);
  const conv: MlsConv = {
    id: parent.id,
    qualified_id: parent.qualified_id,
    groupId: bytesOf(r.body.group_id),
    body: r.body,
  };
  const keys = (await getMLSPublicKeys(pub, d.user.token)).body;
  await d.mls.createConversation(conv.groupId, removalKey ?? bytesOf(keys.removal[schemeOf(d)]));
  expect((await updateCommit(d, conv)).refused).toBeUndefined();
  return conv;
}

const schemeOf = (d: MlsDevice) => (d.mls.suite === 2 ? 'ecdsa_secp256r1_sha256' : 'ed25519');

/** Joins a (sub)conversation by external commit from the GroupInfo the backend serves (createExternalCommit). */
async function joinExternally(d: MlsDevice, groupInfoPath: string) {
  const info = await fetch(`${pub}${groupInfoPath}`, { headers: { authorization: `Bearer ${d.token}` } });
  expect(info.status).toBe(200);
  await d.mls.joinByExternalCommit(new Uint8Array(await info.arrayBuffer()));
  expect(d.refused, d.refused?.text).toBeUndefined();
}

/** The MLS 1:1 of two users, its group started by `d` with the removal key the 1:1 answer names. */
async function one2one(d: MlsDevice, other: TestUser): Promise<{ conv: MlsConv; removalKey: Uint8Array }> {
  const r = await getOne2OneConversation(pub, d.user.token, { domain: 'example.com', id: other.id });
  expect(r.status, r.text).toBe(200);
  const c = r.body.conversation;
  const removalKey = bytesOf(r.body.public_keys.removal[schemeOf(d)]);
  const conv: MlsConv = { id: c.qualified_id.id, qualified_id: c.qualified_id, groupId: bytesOf(c.group_id), body: c };
  await d.mls.createConversation(conv.groupId, removalKey);
  return { conv, removalKey };
}

describe('MLS subconversations', () => {
  it('MLS.SubConversation.testJoinSubConv', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [a1, b1, b2] = await Promise.all([device(alice, 0), device(bob), device(bob)]);
    const conv = await mlsConv(a1);
    await addAndJoin(a1, conv, [bob], [b1, b2]);
    await createSubConv(b1, conv, 'conference');
    const sub = await as(bob).get(subPath(conv, 'conference'));
    expect(sub.status).toBe(200);
    expect(sub.body.epoch_timestamp).not.toBeNull();
    await joinExternally(a1, `${subPath(conv, 'conference')}/groupinfo`);
  });

  it('MLS.SubConversation.testJoinOne2OneSubConv', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [a1, b1, b2] = await Promise.all([device(alice, 0), device(bob), device(bob)]);
    const { conv } = await one2one(a1, bob);
    await addAndJoin(a1, conv, [bob], [b1, b2]);
    const removalKey = bytesOf(
      (await getOne2OneConversation(pub, bob.token, { domain: 'example.com', id: alice.id })).body.public_keys.removal[
        schemeOf(b1)
      ],
    );
    await createSubConv(b1, conv, 'conference', removalKey);
    const sub = await as(bob).get(subPath(conv, 'conference'));
    expect(sub.status).toBe(200);
    expect(sub.body.epoch_timestamp).not.toBeNull();
    await joinExternally(a1, `${subPath(conv, 'conference')}/groupinfo`);
  });

  for (const leaver of ['Alice', 'Bob'] as const) {
    it(`MLS.SubConversation.testLeaveOne2OneSubConv[scenario=local,leaver=${leaver}]`, async () => {
      const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
      const [a1, b1] = await Promise.all([device(alice, 0), device(bob)]);
      const { conv, removalKey } = await one2one(a1, bob);
      await addAndJoin(a1, conv, [bob], [b1]);
      const sub = await createSubConv(a1, conv, 'conference', removalKey);
      await joinExternally(b1, `${subPath(conv, 'conference')}/groupinfo`);
      // alice takes in bob's external commit.
      const joined = (await mlsEventsOf(pub, a1)).filter(
        (x: any) => x.type === 'conversation.mls-message-add' && x.subconv === 'conference',
      );
      expect(await a1.mls.decrypt(sub.groupId, bytesOf(joined.at(-1)!.data))).toMatchObject({ kind: 'commit' });
      const [gone, stays] = leaver === 'Alice' ? [a1, b1] : [b1, a1];
      const ws = await socketOf(stays.user, stays.client);
      const left = await as({ ...gone.user, token: gone.token }).del(`${subPath(conv, 'conference')}/self`);
      expect(left.status, left.text).toBe(200);
      const e = await awaitEvent(ws, 'conversation.mls-message-add', (x) => x.subconv === 'conference');
      await ws.close();
      // The backend's Remove proposal, which the remaining client commits.
      const seen = await stays.mls.decrypt(sub.groupId, bytesOf(e.data)).catch((err) => {
        throw new Error(`decrypt: ${String(err)} ${JSON.stringify(err?.context ?? err?.inner ?? {})}`);
      });
      expect(seen).toEqual({ kind: 'proposal' });
      const committed = await stays.mls.commitPendingProposals(sub.groupId);
      expect(committed).toBeDefined();
      expect(stays.refused, stays.refused?.text).toBeUndefined();
      expect(stays.accepted!.body.events).toEqual([]);
    });
  }

  it('MLS.SubConversation.testDeleteSubConversation[OwnDomain]', async () => {
    const [alice, bob] = (await connectedUsers(2)) as [TestUser, TestUser];
    const [charlie] = (await connectedUsers(1)) as [TestUser];
    const [a1, b1] = await Promise.all([device(alice, 0), device(bob)]);
    const conv = await mlsConv(a1);
    expect((await addUsers(a1, conv, [bob])).refused).toBeUndefined();
    void b1;
    const del = (u: TestUser, sub: any) =>
      as(u).del(subPath(conv, sub.subconv_id), { group_id: sub.group_id, epoch: sub.epoch });
    await createSubConv(a1, conv, 'conference1');
    const sub1 = (await as(alice).get(subPath(conv, 'conference1'))).body;
    expect((await del(charlie, sub1)).status).toBe(403);
    expect((await del(alice, sub1)).status).toBe(200);
    await createSubConv(a1, conv, 'conference2');
    const sub2 = (await as(alice).get(subPath(conv, 'conference2'))).body;
    expect((await del(bob, sub2)).status).toBe(200);
    const again = await as(alice).get(subPath(conv, 'conference2'));
    expect(again.status).toBe(200);
    expect(again.body).not.toEqual(sub2);
  });
});
