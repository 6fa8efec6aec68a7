// Scenarios that need routes of the development version (v9): a backend of the file's own with
// development enabled (wire-server's suite runs at its newest version).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../helpers/backend.js';
import { bytesOf, claimKeyPackages, type MlsDevice, mlsDevice, postMls, uploadKeyPackages } from '../helpers/mls.js';
import { api, connect, createUser, login, type TestUser, teamOwner } from '../helpers/users.js';
import { disabledEverywhere } from '../helpers/versions.js';
import { openSocket } from '../helpers/websocket.js';

let b: TestBackend;
beforeAll(async () => {
  b = await startEditedBackend(disabledEverywhere([]));
}, 180_000);
afterAll(async () => {
  await b?.stop();
});

const user = () => createUser(b.publicUrl, b.internalUrl);
const on = (u: { token: string }) => api(b.publicUrl, u.token);
const q = (u: { id: string }) => ({ id: u.id, domain: 'example.com' });
const path = (c: { id: string; domain: string }) => `/v9/conversations/${c.domain}/${c.id}`;

async function connected(n: number): Promise<TestUser[]> {
  const list = await Promise.all(Array.from({ length: n }, user));
  for (let i = 1; i < n; i++) await connect(b.publicUrl, list[0]!, list[i]!);
  return list;
}

async function dev(u: TestUser, kps = 1): Promise<MlsDevice> {
  const d = await mlsDevice(b.publicUrl, u, 2);
  if (kps > 0) await uploadKeyPackages(b.publicUrl, d, kps);
  return d;
}

const removalKey = async (d: MlsDevice) =>
  bytesOf((await on(d).get('/v9/mls/public-keys')).body.removal.ecdsa_secp256r1_sha256);

/** A device's group for a conversation body (its group id). */
async function group(d: MlsDevice, conv: any): Promise<Uint8Array> {
  const groupId = bytesOf(conv.group_id);
  await d.mls.createConversation(groupId, await removalKey(d));
  return groupId;
}

const addAll = async (by: MlsDevice, groupId: Uint8Array, users: TestUser[]) => {
  const kps: Uint8Array[] = [];
  for (const u of users) kps.push(...(await claimKeyPackages(b.publicUrl, by, u, 2)));
  await by.mls.addClients(groupId, kps);
  expect(by.refused, by.refused?.text).toBeUndefined();
};

const reset = (u: { token: string }, groupId: string, epoch: number) =>
  on(u).post('/v9/mls/reset-conversation', { group_id: groupId, epoch });

describe('v9 scenarios', () => {
  it('Notifications.testGetServerTime', async () => {
    const u = await user();
    const r = await on(u).get('/v9/time');
    expect(r.status).toBe(200);
    expect(Number.isNaN(Date.parse(r.body.time))).toBe(false);
    expect(r.body.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  });

  it('Conversation.testGetSelfMember (both users local)', async () => {
    const [alice, bob] = await connected(2);
    const conv = (
      await on(alice!).post('/v9/conversations', { qualified_users: [q(bob!)], conversation_role: 'wire_member' })
    ).body.qualified_id;
    for (const [u, role] of [
      [alice!, 'wire_admin'],
      [bob!, 'wire_member'],
    ] as const) {
      const r = await on(u).get(`${path(conv)}/self`);
      expect(r.status, r.text).toBe(200);
      expect(r.body).toMatchObject({
        conversation_role: role,
        hidden: false,
        hidden_ref: null,
        otr_archived: false,
        otr_archived_ref: null,
        otr_muted_ref: null,
        otr_muted_status: null,
        qualified_id: q(u),
        service: null,
        status: 0,
        status_ref: '0.0',
      });
    }
  });

  it('MLS.testEpochZeroApplicationMessage', async () => {
    const [alice] = await connected(1);
    const a1 = await dev(alice!, 0);
    const created = (await on(alice!).post('/v9/conversations', { protocol: 'mls', qualified_users: [] })).body;
    const groupId = await group(a1, created);
    await a1.mls.updateKeyingMaterial(groupId);
    expect(a1.refused).toBeUndefined();
    const ok = await a1.mls.encrypt(groupId, 'group is initialised');
    expect((await postMls(b.publicUrl, a1.token, '/v9/mls/messages', ok)).status).toBe(201);
    expect((await reset(alice!, created.group_id, 1)).status).toBe(200);
    const after = (await on(alice!).get(path(created.qualified_id))).body;
    const fresh = await group(a1, after);
    const early = await a1.mls.encrypt(fresh, 'group not initialised');
    const r = await postMls(b.publicUrl, a1.token, '/v9/mls/messages', early);
    expect(r).toMatchObject({ status: 400, body: { label: 'mls-protocol-error' } });
    expect(r.body.message).toBe('Application messages at epoch 0 are not supported');
  });

  it('MLS.Reset.testResetGroupConversation[OwnDomain]', async () => {
    const [alice, bob, charlie] = await connected(3);
    const [a1] = await Promise.all([dev(alice!, 0), dev(bob!)]);
    const created = (await on(alice!).post('/v9/conversations', { protocol: 'mls', qualified_users: [] })).body;
    const groupId = await group(a1, created);
    await addAll(a1, groupId, [bob!]);
    expect((await reset(alice!, created.group_id, 0)).status).toBe(409);
    expect((await reset(bob!, created.group_id, 0)).status).toBe(409);
    expect((await reset(charlie!, created.group_id, 1)).status).toBe(404);
    const { token } = await login(b.publicUrl, alice!.email, alice!.password);
    const ws = await openSocket(b.publicUrl, `/v9/await?access_token=${token}`);
    expect((await reset(bob!, created.group_id, 1)).status).toBe(200);
    const after = await on(alice!).get(path(created.qualified_id));
    expect(after.status).toBe(200);
    const e = (await ws.next((n: any) => n?.payload?.[0]?.type === 'conversation.mls-reset')).payload[0];
    await ws.close();
    expect(e.data.group_id).toBe(created.group_id);
    expect(e.data.new_group_id).toBe(after.body.group_id);
    expect(after.body.group_id).not.toBe(created.group_id);
    expect(after.body.epoch).toBe(0);
    expect(after.body.members.others.map((m: any) => m.qualified_id)).toEqual([q(bob!)]);
  });

  it('MLS.Reset.testResetSelfConversation', async () => {
    const alice = await user();
    const a1 = await dev(alice, 0);
    await dev(alice);
    const self = (await on(alice).get('/v9/conversations/mls-self')).body;
    const groupId = await group(a1, self);
    await addAll(a1, groupId, [alice]);
    expect((await reset(alice, self.group_id, 1)).status).toBe(200);
    const reset1 = (await on(alice).get('/v9/conversations/mls-self')).body;
    expect(reset1.group_id).not.toBe(self.group_id);
    expect(reset1.epoch).toBe(0);
    await dev(alice);
    const fresh = await group(a1, reset1);
    await addAll(a1, fresh, [alice]);
    const again = (await on(alice).get(path(reset1.qualified_id))).body;
    expect(again.epoch).toBe(1);
    expect(again.group_id).toBe(reset1.group_id);
  });

  it('MLS.Reset.testResetMixedConversation[OwnDomain]', async () => {
    const alice = await teamOwner(b.publicUrl, b.internalUrl);
    const bob = await user();
    await connect(b.publicUrl, alice, bob);
    const conv = (
      await on(alice).post('/v9/conversations', {
        qualified_users: [q(bob)],
        team: { teamid: alice.team, managed: false },
      })
    ).body.qualified_id;
    expect((await on(bob).put(`${path(conv)}/protocol`, { protocol: 'mixed' })).status).toBe(200);
    const [a1] = await Promise.all([dev(alice, 0), dev(bob)]);
    const mixed = (await on(alice).get(path(conv))).body;
    const groupId = await group(a1, mixed);
    await addAll(a1, groupId, [bob]);
    const before = (await on(alice).get(path(conv))).body;
    expect((await reset(bob, before.group_id, before.epoch)).status).toBe(200);
    const after = (await on(alice).get(path(conv))).body;
    expect(after.group_id).not.toBe(before.group_id);
    expect(after.epoch).toBe(0);
    expect(after.members.others.map((m: any) => m.qualified_id)).toEqual([q(bob)]);
  });
});
