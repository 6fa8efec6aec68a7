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
import { connectedTrio, createUser, type TestUser } from '../../helpers/users.js';
import { putConnection } from '../../helpers/endpoints/brig.js';
import {
  getMLSPublicKeys,
  getOne2OneConversation,
  getSelfConversation,
  postMLSMessage,
} from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();

/** The MLS 1:1 of `me` with `other` as the API shows it, and its group id. */
async function one2one(me: MlsDevice, other: TestUser) {
  const r = await getOne2OneConversation(publicUrl, me.token, { domain: 'example.com', id: other.id });
  expect(r.status, r.text).toBe(200);
  return { body: r.body, groupId: bytesOf(r.body.conversation.group_id) };
}

describe('MLS 1:1 conversations, stored by their first commit', () => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let a: MlsDevice;
  let b: MlsDevice;
  beforeAll(async () => {
    [alice, bob, carol] = await connectedTrio(publicUrl, internalUrl);
    [a, b] = await Promise.all([mlsDevice(publicUrl, alice), mlsDevice(publicUrl, bob)]);
    await uploadKeyPackages(publicUrl, b, 2);
  });

  it('refuses a first commit that adds someone else than the other user', async () => {
    const c = await mlsDevice(publicUrl, carol);
    await uploadKeyPackages(publicUrl, c, 1);
    const conv = await one2one(a, bob);
    await a.mls.createConversation(conv.groupId, bytesOf(conv.body.public_keys.removal.ed25519));
    await expect(a.mls.addClients(conv.groupId, await claimKeyPackages(publicUrl, a, carol))).rejects.toThrow();
    expect(a.refused).toMatchObject({ status: 400, body: wireError(400, 'mls-protocol-error') });
    expect((await one2one(a, bob)).body.conversation.epoch).toBe(0);
  });

  it('stores the 1:1 with both users when the first commit adds the other user, who can then answer', async () => {
    const conv = await one2one(a, bob);
    await a.mls.addClients(conv.groupId, await claimKeyPackages(publicUrl, a, bob));
    expect(a.refused).toBeUndefined();

    const seen = await one2one(b, alice);
    expect(seen.body.conversation.qualified_id).toEqual(conv.body.conversation.qualified_id);
    expect(seen.body.conversation.epoch).toBe(1);
    expect(seen.body.conversation.members.others.map((m: any) => m.qualified_id.id)).toEqual([alice.id]);

    const welcome = (await mlsEventsOf(publicUrl, b)).filter((e) => e.type === 'conversation.mls-welcome').at(-1);
    await b.mls.processWelcome(bytesOf(welcome!.data));
    const hi = await b.mls.encrypt(conv.groupId, 'hi alice, 1:1');
    expect((await postMLSMessage(publicUrl, b.token, hi)).status).toBe(201);
    const last = (await mlsEventsOf(publicUrl, a)).filter((e) => e.type === 'conversation.mls-message-add').at(-1);
    expect(await a.mls.decrypt(conv.groupId, bytesOf(last!.data))).toMatchObject({
      kind: 'text',
      text: 'hi alice, 1:1',
    });
  });

  it('does not deliver the 1:1 messages of a sender the other user blocked', async () => {
    const conv = await one2one(a, bob);
    const inbox = async () =>
      (await mlsEventsOf(publicUrl, a)).filter(
        (e) => e.type === 'conversation.mls-message-add' && e.conversation === conv.body.conversation.qualified_id.id,
      ).length;
    const before = await inbox();
    const blocked = await putConnection(
      publicUrl,
      alice.token,
      { domain: 'example.com', id: bob.id },
      {
        status: 'blocked',
      },
    );
    expect(blocked.status, blocked.text).toBe(200);
    const unwanted = await b.mls.encrypt(conv.groupId, 'you blocked me');
    expect((await postMLSMessage(publicUrl, b.token, unwanted)).status).toBe(201);
    expect(await inbox()).toBe(before);
    // Unblocked, the next message arrives.
    await putConnection(publicUrl, alice.token, { domain: 'example.com', id: bob.id }, { status: 'accepted' });
    expect(await postMLSMessage(publicUrl, b.token, await b.mls.encrypt(conv.groupId, 'again'))).toMatchObject({
      status: 201,
    });
    expect(await inbox()).toBe(before + 1);
  });
});

describe('the MLS self conversation', () => {
  it('takes its owner’s first commit, and then the owner’s other client by its Welcome', async () => {
    const owner = await createUser(publicUrl, internalUrl);
    const [first, second] = [await mlsDevice(publicUrl, owner), await mlsDevice(publicUrl, owner)];
    await uploadKeyPackages(publicUrl, second, 1);
    const self = await getSelfConversation(publicUrl, first.token);
    expect(self.status, self.text).toBe(200);
    const groupId = bytesOf(self.body.group_id);
    const removal = bytesOf((await getMLSPublicKeys(publicUrl, first.token)).body.removal.ed25519);
    await first.mls.createConversation(groupId, removal);
    await first.mls.addClients(groupId, await claimKeyPackages(publicUrl, first, owner));
    expect(first.refused).toBeUndefined();
    expect((await getSelfConversation(publicUrl, first.token)).body.epoch).toBe(1);
    const welcome = (await mlsEventsOf(publicUrl, second)).filter((e) => e.type === 'conversation.mls-welcome').at(-1);
    await second.mls.processWelcome(bytesOf(welcome!.data));
    expect(await second.mls.epoch(groupId)).toBe(1n);
  });
});
