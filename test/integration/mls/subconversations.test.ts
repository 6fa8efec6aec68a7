import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import {
  bytesOf,
  claimKeyPackages,
  type MlsDevice,
  mlsDevice,
  mlsEventsOf,
  postMls,
  uploadKeyPackages,
} from '../../helpers/mls.js';
import { api, connect, createUser, type TestUser } from '../../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();

/** The raw GroupInfo a GET serves. */
async function groupInfo(d: MlsDevice, path: string): Promise<Uint8Array> {
  const r = await fetch(`${publicUrl}${path}`, { headers: { authorization: `Bearer ${d.token}` } });
  expect(r.status).toBe(200);
  return new Uint8Array(await r.arrayBuffer());
}

describe('MLS subconversations (conference calls)', () => {
  let alice: TestUser;
  let bob: TestUser;
  let a: MlsDevice;
  let b: MlsDevice;
  let conv: { id: string; groupId: Uint8Array };
  let removal: Uint8Array;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([createUser(publicUrl, internalUrl), createUser(publicUrl, internalUrl)]);
    await connect(publicUrl, alice, bob);
    [a, b] = await Promise.all([mlsDevice(publicUrl, alice), mlsDevice(publicUrl, bob)]);
    await uploadKeyPackages(publicUrl, b, 1);
    const r = await api(publicUrl, a.token).post('/v8/conversations', {
      protocol: 'mls',
      name: 'Call',
      qualified_users: [],
    });
    conv = { id: r.body.qualified_id.id, groupId: bytesOf(r.body.group_id) };
    removal = bytesOf((await api(publicUrl, a.token).get('/v8/mls/public-keys')).body.removal.ed25519);
    await a.mls.createConversation(conv.groupId, removal);
    await a.mls.addClients(conv.groupId, await claimKeyPackages(publicUrl, a, bob));
    expect(a.refused).toBeUndefined();
  });

  it('is created by its first commit, joined by external commit, carries messages, and is left and reset', async () => {
    const path = `/v8/conversations/example.com/${conv.id}/subconversations/conference`;
    const fresh = await api(publicUrl, a.token).get(path);
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body).toMatchObject({
      parent_qualified_id: { id: conv.id },
      subconv_id: 'conference',
      epoch: 0,
      members: [],
    });
    const sub = bytesOf(fresh.body.group_id);

    await a.mls.createConversation(sub, removal);
    await a.mls.updateKeyingMaterial(sub);
    expect(a.refused).toBeUndefined();
    const started = await api(publicUrl, b.token).get(path);
    expect(started.body.epoch).toBe(1);
    expect(started.body.members).toEqual([{ domain: 'example.com', user_id: alice.id, client_id: a.client }]);

    await b.mls.joinByExternalCommit(await groupInfo(b, `${path}/groupinfo`));
    expect(b.refused).toBeUndefined();
    expect((await api(publicUrl, a.token).get(path)).body.members).toHaveLength(2);
    const join = (await mlsEventsOf(publicUrl, a)).filter((e: any) => e.subconv === 'conference').at(-1);
    expect(await a.mls.decrypt(sub, bytesOf(join!.data))).toEqual({ kind: 'commit', isActive: true });

    const hello = await a.mls.encrypt(sub, 'in the call');
    expect((await postMls(publicUrl, a.token, '/v8/mls/messages', hello)).status).toBe(201);
    const got = (await mlsEventsOf(publicUrl, b)).filter((e: any) => e.subconv === 'conference').at(-1);
    expect(got).toMatchObject({ type: 'conversation.mls-message-add', conversation: conv.id, subconv: 'conference' });
    expect(await b.mls.decrypt(sub, bytesOf(got!.data))).toMatchObject({ kind: 'text', text: 'in the call' });

    // Leaving: the backend proposes the client's removal to the others.
    expect((await api(publicUrl, b.token).del(`${path}/self`)).status).toBe(200);
    const proposal = (await mlsEventsOf(publicUrl, a)).filter((e: any) => e.subconv === 'conference').at(-1);
    expect(await a.mls.decrypt(sub, bytesOf(proposal!.data))).toEqual({ kind: 'proposal' });

    // Resetting needs the current group id and epoch; it starts the next generation, empty.
    const now = (await api(publicUrl, a.token).get(path)).body;
    expect(await api(publicUrl, a.token).del(path, { group_id: now.group_id, epoch: now.epoch - 1 })).toMatchObject({
      status: 409,
      body: wireError(409, 'mls-stale-message'),
    });
    expect((await api(publicUrl, a.token).del(path, { group_id: now.group_id, epoch: now.epoch })).status).toBe(200);
    const reset = (await api(publicUrl, a.token).get(path)).body;
    expect(reset).toMatchObject({ epoch: 0, members: [] });
    expect(reset.group_id).not.toBe(now.group_id);
  });

  it('refuses outsiders and conversations that cannot have subconversations', async () => {
    const stranger = await createUser(publicUrl, internalUrl);
    const path = `/v8/conversations/example.com/${conv.id}/subconversations/conference`;
    expect((await api(publicUrl, stranger.token).get(path)).status).toBe(403);
    // A Proteus conversation has no MLS group to hang one on: not found, as wire-server answers.
    const proteus = await api(publicUrl, alice.token).post('/v8/conversations', { name: 'P', qualified_users: [] });
    expect(
      await api(publicUrl, alice.token).get(
        `/v8/conversations/example.com/${proteus.body.qualified_id.id}/subconversations/x`,
      ),
    ).toMatchObject({ status: 404, body: wireError(404, 'no-conversation') });
    // A self conversation is of a type that has none.
    const self = await api(publicUrl, a.token).get('/v8/conversations/mls-self');
    expect(self.status, self.text).toBe(200);
    expect(
      await api(publicUrl, alice.token).get(
        `/v8/conversations/example.com/${self.body.qualified_id.id}/subconversations/x`,
      ),
    ).toMatchObject({ status: 403, body: wireError(403, 'mls-subconv-unsupported-convtype') });
  });
});
