import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import {
  bytesOf,
  claimKeyPackages,
  type MlsDevice,
  mlsDevice,
  mlsEventsOf,
  uploadKeyPackages,
} from '../../helpers/mls.js';
import { api, connect, createUser, type TestUser } from '../../helpers/users.js';
import {
  getMLSPublicKeys,
  getSelfConversation,
  getSubConversation,
  postConversation,
  postMLSMessage,
} from '../../helpers/endpoints/galley.js';

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
    const r = await postConversation(publicUrl, a.token, {
      protocol: 'mls',
      name: 'Call',
      qualified_users: [],
    });
    conv = { id: r.body.qualified_id.id, groupId: bytesOf(r.body.group_id) };
    removal = bytesOf((await getMLSPublicKeys(publicUrl, a.token)).body.removal.ed25519);
    await a.mls.createConversation(conv.groupId, removal);
    await a.mls.addClients(conv.groupId, await claimKeyPackages(publicUrl, a, bob));
    expect(a.refused).toBeUndefined();
  });

  it('is created by its first commit, joined by external commit, carries messages, and is left and reset', async () => {
    const path = `/v8/conversations/example.com/${conv.id}/subconversations/conference`;
    const fresh = await getSubConversation(publicUrl, a.token, { domain: 'example.com', id: conv.id }, 'conference');
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
    const started = await getSubConversation(publicUrl, b.token, { domain: 'example.com', id: conv.id }, 'conference');
    expect(started.body.epoch).toBe(1);
    expect(started.body.members).toEqual([{ domain: 'example.com', user_id: alice.id, client_id: a.client }]);

    await b.mls.joinByExternalCommit(await groupInfo(b, `${path}/groupinfo`));
    expect(b.refused).toBeUndefined();
    expect(
      (await getSubConversation(publicUrl, a.token, { domain: 'example.com', id: conv.id }, 'conference')).body.members,
    ).toHaveLength(2);
    const join = (await mlsEventsOf(publicUrl, a)).filter((e: any) => e.subconv === 'conference').at(-1);
    expect(await a.mls.decrypt(sub, bytesOf(join!.data))).toEqual({ kind: 'commit', isActive: true });

    const hello = await a.mls.encrypt(sub, 'in the call');
    expect((await postMLSMessage(publicUrl, a.token, hello)).status).toBe(201);
    const got = (await mlsEventsOf(publicUrl, b)).filter((e: any) => e.subconv === 'conference').at(-1);
    expect(got).toMatchObject({ type: 'conversation.mls-message-add', conversation: conv.id, subconv: 'conference' });
    expect(await b.mls.decrypt(sub, bytesOf(got!.data))).toMatchObject({ kind: 'text', text: 'in the call' });

    // Leaving: the backend proposes the client's removal to the others.
    expect((await api(publicUrl, b.token).del(`${path}/self`)).status).toBe(200);
    const proposal = (await mlsEventsOf(publicUrl, a)).filter((e: any) => e.subconv === 'conference').at(-1);
    expect(await a.mls.decrypt(sub, bytesOf(proposal!.data))).toEqual({ kind: 'proposal' });

    // Resetting needs the current group id and epoch; it starts the next generation, empty.
    const now = (await getSubConversation(publicUrl, a.token, { domain: 'example.com', id: conv.id }, 'conference'))
      .body;
    expect(await api(publicUrl, a.token).del(path, { group_id: now.group_id, epoch: now.epoch - 1 })).toMatchObject({
      status: 409,
      body: wireError(409, 'mls-stale-message'),
    });
    expect((await api(publicUrl, a.token).del(path, { group_id: now.group_id, epoch: now.epoch })).status).toBe(200);
    const reset = (await getSubConversation(publicUrl, a.token, { domain: 'example.com', id: conv.id }, 'conference'))
      .body;
    expect(reset).toMatchObject({ epoch: 0, members: [] });
    expect(reset.group_id).not.toBe(now.group_id);
  });

  it('refuses outsiders and conversations that cannot have subconversations', async () => {
    const stranger = await createUser(publicUrl, internalUrl);
    expect(
      (await getSubConversation(publicUrl, stranger.token, { domain: 'example.com', id: conv.id }, 'conference'))
        .status,
    ).toBe(403);
    // A Proteus conversation has no MLS group to hang one on: not found, as wire-server answers.
    const proteus = await postConversation(publicUrl, alice.token, { name: 'P', qualified_users: [] });
    expect(
      await getSubConversation(
        publicUrl,
        alice.token,
        { domain: 'example.com', id: proteus.body.qualified_id.id },
        'x',
      ),
    ).toMatchObject({ status: 404, body: wireError(404, 'no-conversation') });
    // A self conversation is of a type that has none.
    const self = await getSelfConversation(publicUrl, a.token);
    expect(self.status, self.text).toBe(200);
    expect(
      await getSubConversation(publicUrl, alice.token, { domain: 'example.com', id: self.body.qualified_id.id }, 'x'),
    ).toMatchObject({ status: 403, body: wireError(403, 'mls-subconv-unsupported-convtype') });
  });
});
