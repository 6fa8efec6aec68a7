import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { bundleBody, newMlsClient } from '../../helpers/core-crypto.js';
import { wireError } from '../../helpers/http.js';
import { ConvType, encodeGroupId } from '../../../src/shared/mls/group-id.js';
import {
  bytesOf,
  claimKeyPackages,
  type MlsDevice,
  mlsDevice,
  mlsEventsOf,
  postMls,
  uploadKeyPackages,
} from '../../helpers/mls.js';
import { connect, connectedTrio, createUser, type TestUser } from '../../helpers/users.js';
import { deleteClient } from '../../helpers/endpoints/brig.js';
import {
  getConversation,
  getMLSPublicKeys,
  postConversation,
  postMLSCommitBundle,
  postMLSMessage,
  removeMember,
} from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();

/** A new MLS conversation of `owner`: its id and group id, and the backend's removal key. */
async function mlsConversation(owner: MlsDevice) {
  const r = await postConversation(publicUrl, owner.token, {
    protocol: 'mls',
    name: 'MLS',
    qualified_users: [],
  });
  expect(r.status, r.text).toBe(201);
  const keys = await getMLSPublicKeys(publicUrl, owner.token);
  const groupId = bytesOf(r.body.group_id);
  await owner.mls.createConversation(groupId, bytesOf(keys.body.removal.ed25519));
  return { id: r.body.qualified_id.id as string, groupId };
}

type Conv = { id: string; groupId: Uint8Array };

/** The MLS events of one conversation a device was sent, of one type. */
const eventsIn = async (d: MlsDevice, conv: Conv, type: string) =>
  (await mlsEventsOf(publicUrl, d)).filter((e) => e.type === type && e.conversation === conv.id);

/** The Welcome a device was sent last, applied. */
async function joinByWelcome(d: MlsDevice, conv: Conv) {
  const welcome = (await eventsIn(d, conv, 'conversation.mls-welcome')).at(-1);
  expect(welcome, `no welcome for ${d.client}`).toBeDefined();
  await d.mls.processWelcome(bytesOf(welcome!.data));
}

/** The last MLS message a device was sent in a conversation, decrypted. */
async function lastMessage(d: MlsDevice, conv: Conv) {
  const last = (await eventsIn(d, conv, 'conversation.mls-message-add')).at(-1);
  expect(last).toBeDefined();
  return d.mls.decrypt(conv.groupId, bytesOf(last!.data));
}

describe('MLS delivery service, driven by core-crypto clients', () => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let a: MlsDevice;
  let b1: MlsDevice;
  let b2: MlsDevice;
  beforeAll(async () => {
    [alice, bob, carol] = await connectedTrio(publicUrl, internalUrl);
    a = await mlsDevice(publicUrl, alice);
    b1 = await mlsDevice(publicUrl, bob);
    b2 = await mlsDevice(publicUrl, bob);
    for (const d of [b1, b2]) await uploadKeyPackages(publicUrl, d, 2);
  });

  it('adds both clients of a user by one commit, and carries application messages both ways', async () => {
    const conv = await mlsConversation(a);
    const bundle = await a.mls.addClients(conv.groupId, await claimKeyPackages(publicUrl, a, bob));
    expect(a.refused).toBeUndefined();

    const asBob = await getConversation(publicUrl, bob.token, { domain: 'example.com', id: conv.id });
    expect(asBob.status).toBe(200);
    expect(asBob.body.epoch).toBe(1);
    expect(asBob.body.members.others.map((m: any) => m.qualified_id.id)).toEqual([alice.id]);
    // The GroupInfo the commit brought is served for external joins: the inner GroupInfo, as sent.
    const info = await fetch(`${publicUrl}/v8/conversations/example.com/${conv.id}/groupinfo`, {
      headers: { authorization: `Bearer ${bob.token}` },
    });
    expect(info.status).toBe(200);
    expect(info.headers.get('content-type')).toBe('message/mls');
    expect(Buffer.from(await info.arrayBuffer()).equals(Buffer.from(bundle.groupInfo.subarray(4)))).toBe(true);
    for (const d of [b1, b2]) await joinByWelcome(d, conv);

    const hello = await a.mls.encrypt(conv.groupId, 'hello from alice');
    expect((await postMLSMessage(publicUrl, a.token, hello)).status).toBe(201);
    expect(await lastMessage(b2, conv)).toMatchObject({ kind: 'text', text: 'hello from alice' });

    const reply = await b1.mls.encrypt(conv.groupId, 'hi alice');
    expect((await postMLSMessage(publicUrl, b1.token, reply)).status).toBe(201);
    expect(await lastMessage(a, conv)).toMatchObject({ kind: 'text', text: 'hi alice' });

    // The same commit again (its sender may have had no answer) is answered as it was, and sent to nobody again.
    const again = await postMLSCommitBundle(publicUrl, a.token, bundleBody(bundle));
    expect(again.status, again.text).toBe(201);
    expect((await eventsIn(b1, conv, 'conversation.mls-welcome')).length).toBe(1);
    // Once the group has moved on, it is of an epoch that has passed.
    await a.mls.updateKeyingMaterial(conv.groupId);
    expect(a.refused).toBeUndefined();
    expect(await postMLSCommitBundle(publicUrl, a.token, bundleBody(bundle))).toMatchObject({
      status: 409,
      body: wireError(409, 'mls-stale-message'),
    });
  });

  it('refuses a commit that adds only some of a user’s clients, and changes nothing', async () => {
    const c1 = await mlsDevice(publicUrl, carol);
    const c2 = await mlsDevice(publicUrl, carol);
    // Two packages each: a client whose last package was just claimed need not be added.
    for (const d of [c1, c2]) await uploadKeyPackages(publicUrl, d, 2);
    const conv = await mlsConversation(a);
    const [one] = await claimKeyPackages(publicUrl, a, carol);
    await expect(a.mls.addClients(conv.groupId, [one!])).rejects.toThrow();
    expect(a.refused).toMatchObject({ status: 409, body: wireError(409, 'mls-client-mismatch') });
    const after = await getConversation(publicUrl, alice.token, { domain: 'example.com', id: conv.id });
    expect(after.body.epoch).toBe(0);
    expect(after.body.members.others).toEqual([]);
  });

  it('takes a commit that leaves out a client whose last key package was claimed (the committer may hold it)', async () => {
    const erin = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, alice, erin);
    const [e1, e2] = [await mlsDevice(publicUrl, erin), await mlsDevice(publicUrl, erin)];
    for (const d of [e1, e2]) await uploadKeyPackages(publicUrl, d, 1);
    const conv = await mlsConversation(a);
    const [one] = await claimKeyPackages(publicUrl, a, erin);
    await a.mls.addClients(conv.groupId, [one!]);
    const after = await getConversation(publicUrl, alice.token, { domain: 'example.com', id: conv.id });
    expect(after.body.epoch).toBe(1);
    expect(after.body.members.others.map((m: { id: string }) => m.id)).toEqual([erin.id]);
  });

  it('refuses a first commit that leaves out another client of the committer’s own user, as any other commit', async () => {
    const dave = await createUser(publicUrl, internalUrl);
    const [d1, d2, d3] = [
      await mlsDevice(publicUrl, dave),
      await mlsDevice(publicUrl, dave),
      await mlsDevice(publicUrl, dave),
    ];
    await uploadKeyPackages(publicUrl, d2, 1);
    const conv = await mlsConversation(d1);
    const [ofD2] = await claimKeyPackages(publicUrl, d1, dave);
    // d3 gets a package only after the claim: the commit adding d2 alone leaves it out.
    await uploadKeyPackages(publicUrl, d3, 1);
    await expect(d1.mls.addClients(conv.groupId, [ofD2!])).rejects.toThrow();
    expect(d1.refused).toMatchObject({ status: 409, body: wireError(409, 'mls-client-mismatch') });
    expect((await getConversation(publicUrl, dave.token, { domain: 'example.com', id: conv.id })).body.epoch).toBe(0);

    const [ofD3] = await claimKeyPackages(publicUrl, d1, dave);
    await d1.mls.addClients(conv.groupId, [ofD2!, ofD3!]);
    expect((await getConversation(publicUrl, dave.token, { domain: 'example.com', id: conv.id })).body.epoch).toBe(1);
  });

  it('proposes the removal of a deleted client; the next commit must reference it', async () => {
    const conv = await mlsConversation(a);
    await a.mls.addClients(conv.groupId, await claimKeyPackages(publicUrl, a, bob));
    for (const d of [b1, b2]) await joinByWelcome(d, conv);

    const del = await deleteClient(publicUrl, bob.token, b2.client, { password: bob.password });
    expect(del.status, del.text).toBe(200);
    // The backend's Remove reaches every client of the group, as a proposal from an external sender.
    expect(await lastMessage(b1, conv)).toEqual({ kind: 'proposal' });

    // A commit that leaves the proposal out is refused...
    const dave = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, alice, dave);
    const d1 = await mlsDevice(publicUrl, dave);
    await uploadKeyPackages(publicUrl, d1, 1);
    await expect(a.mls.addClients(conv.groupId, await claimKeyPackages(publicUrl, a, dave))).rejects.toThrow();
    expect(a.refused).toMatchObject({ status: 400, body: wireError(400, 'mls-commit-missing-references') });

    // ...one that commits it is taken: the client leaves the group, its user stays in the conversation.
    expect(await lastMessage(a, conv)).toEqual({ kind: 'proposal' });
    expect(await a.mls.commitPendingProposals(conv.groupId)).toBeDefined();
    expect(a.refused).toBeUndefined();
    expect(await lastMessage(b1, conv)).toEqual({ kind: 'commit', isActive: true });
    const after = await getConversation(publicUrl, bob.token, { domain: 'example.com', id: conv.id });
    expect(after.body.epoch).toBe(2);
    const bye = await b1.mls.encrypt(conv.groupId, 'still here');
    expect((await postMLSMessage(publicUrl, b1.token, bye)).status).toBe(201);
    expect(await lastMessage(a, conv)).toMatchObject({ kind: 'text', text: 'still here' });
  });

  it('lets a new client of a member join by external commit, from the stored group info', async () => {
    const conv = await mlsConversation(a);
    await uploadKeyPackages(publicUrl, b1, 1);
    await a.mls.addClients(conv.groupId, await claimKeyPackages(publicUrl, a, bob)); // b1: b2 was deleted above
    expect(a.refused).toBeUndefined();
    const b3 = await mlsDevice(publicUrl, bob);
    const info = await fetch(`${publicUrl}/v8/conversations/example.com/${conv.id}/groupinfo`, {
      headers: { authorization: `Bearer ${b3.token}` },
    });
    expect(info.status).toBe(200);
    await b3.mls.joinByExternalCommit(new Uint8Array(await info.arrayBuffer()));
    expect(b3.refused).toBeUndefined();
    expect(await lastMessage(a, conv)).toEqual({ kind: 'commit', isActive: true });
    const hi = await b3.mls.encrypt(conv.groupId, 'joined by myself');
    expect((await postMLSMessage(publicUrl, b3.token, hi)).status).toBe(201);
    expect(await lastMessage(a, conv)).toMatchObject({ kind: 'text', text: 'joined by myself' });
  });

  it('refuses an application message from someone not in the conversation (404), and one after the sender has left', async () => {
    const conv = await mlsConversation(a);
    const dave = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, alice, dave);
    const d1 = await mlsDevice(publicUrl, dave);
    await uploadKeyPackages(publicUrl, d1, 1);
    await a.mls.addClients(conv.groupId, await claimKeyPackages(publicUrl, a, dave));
    expect(a.refused).toBeUndefined();
    const hello = await a.mls.encrypt(conv.groupId, 'members only');
    // A ciphertext does not say who sent it: the token does, and carol is not a member.
    const c1 = await mlsDevice(publicUrl, carol);
    expect(await postMLSMessage(publicUrl, c1.token, hello)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
    expect((await postMLSMessage(publicUrl, a.token, hello)).status).toBe(201);
    // A message for another generation of the conversation's group: the member hears that the
    // group id is wrong, a non-member only that there is no conversation for them.
    const x = await newMlsClient({ user: crypto.randomUUID(), client: '1', domain: 'example.com', suite: 1 });
    const otherGroup = encodeGroupId({
      version: 2,
      convType: ConvType.regular,
      conv: conv.id,
      generation: 7,
      domain: 'example.com',
    });
    const removal = (await getMLSPublicKeys(publicUrl, a.token)).body.removal.ed25519;
    await x.createConversation(otherGroup, bytesOf(removal));
    const misplaced = await x.encrypt(otherGroup, 'wrong generation');
    expect(await postMLSMessage(publicUrl, a.token, misplaced)).toMatchObject({
      status: 400,
      body: wireError(400, 'mls-protocol-error'),
    });
    expect(await postMLSMessage(publicUrl, c1.token, misplaced)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
    // Once dave has left, his client's messages are refused too.
    await joinByWelcome(d1, conv);
    const before = await d1.mls.encrypt(conv.groupId, 'still a member');
    expect((await postMLSMessage(publicUrl, d1.token, before)).status).toBe(201);
    const left = await removeMember(
      publicUrl,
      dave.token,
      { domain: 'example.com', id: conv.id },
      { domain: 'example.com', id: dave.id },
    );
    expect(left.status, left.text).toBe(200);
    const again = await d1.mls.encrypt(conv.groupId, 'dave has gone');
    expect(await postMLSMessage(publicUrl, d1.token, again)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
  });

  it('answers malformed or misplaced MLS messages with MLS errors, never a 500', async () => {
    const garbage = new TextEncoder().encode('not an MLS message');
    const kp = (await b1.mls.keyPackage()).bytes; // a bare KeyPackage is no MLSMessage
    for (const path of ['/v8/mls/commit-bundles', '/v8/mls/messages']) {
      expect(await postMls(publicUrl, a.token, path, garbage)).toMatchObject({
        status: 400,
        body: wireError(400, 'mls-protocol-error'),
      });
      expect(await postMls(publicUrl, a.token, path, new Uint8Array())).toMatchObject({ status: 400 });
      expect((await postMls(publicUrl, a.token, path, kp)).status).toBe(400);
    }
    // A commit is only taken in a bundle (two clients of no backend make one).
    const [x, y] = await Promise.all(
      ['1', '2'].map((client) => newMlsClient({ user: crypto.randomUUID(), client, domain: 'example.com', suite: 1 })),
    );
    const groupId = crypto.getRandomValues(new Uint8Array(16));
    const removal = (await getMLSPublicKeys(publicUrl, a.token)).body.removal.ed25519;
    await x!.createConversation(groupId, bytesOf(removal));
    const { commit } = await x!.addClients(groupId, [(await y!.keyPackage()).bytes]);
    expect(await postMLSMessage(publicUrl, a.token, commit)).toMatchObject({
      status: 422,
      body: wireError(422, 'mls-unsupported-message'),
    });
  });
});
