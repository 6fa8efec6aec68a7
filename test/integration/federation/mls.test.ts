import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, B, type FederatedPair, startPairWithConnectedUsers } from '../../helpers/federation.js';
import { bytesOf, claimKeyPackages, type MlsDevice, mlsDevice, uploadKeyPackages } from '../../helpers/mls.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import { waitFor } from '../../helpers/wait.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';
import { deleteClient } from '../../helpers/endpoints/brig.js';
import {
  getConversation,
  getGroupInfo,
  getMLSPublicKeys,
  getSubConversation,
  postConversation,
  postMLSMessage,
} from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const mlsEvent = (type: string, conv: string) => (m: any) =>
  m?.payload?.[0]?.type === type && m.payload[0].qualified_conversation?.id === conv;
/** An MLS message of the conversation's own group (not a subconversation's) sent by `user`. */
const mainGroupFrom = (user: string, conv: string) => (m: any) =>
  mlsEvent('conversation.mls-message-add', conv)(m) &&
  m.payload[0].qualified_from?.id === user &&
  m.payload[0].subconv === undefined;

/** An MLS group owned by example.com with a client of b.example.com, driven by core-crypto clients. */
describe('federation: an MLS group spanning two backends', () => {
  let pair: FederatedPair;
  let alice: TestUser;
  let bob: TestUser;
  let a: MlsDevice;
  let b: MlsDevice;
  let aliceWs: TestSocket;
  let bobWs: TestSocket;
  let group: { conv: string; groupId: string } | undefined;
  let b2: MlsDevice;

  beforeAll(async () => {
    ({ pair, alice, bob } = await startPairWithConnectedUsers());
    a = await mlsDevice(pair.a.publicUrl, alice, 1, A);
    b = await mlsDevice(pair.b.publicUrl, bob, 1, B);
    await uploadKeyPackages(pair.b.publicUrl, b, 2);
    aliceWs = await openSocket(pair.a.publicUrl, `/v8/await?access_token=${a.token}&client=${a.client}`);
    bobWs = await openSocket(pair.b.publicUrl, `/v8/await?access_token=${b.token}&client=${b.client}`);
  });
  afterAll(async () => {
    await aliceWs?.close();
    await bobWs?.close();
    await pair?.stop();
  });

  it('adds a remote client by commit: its backend gets the conversation, the join and the Welcome; messages go both ways', async () => {
    const created = await postConversation(pair.a.publicUrl, a.token, {
      protocol: 'mls',
      name: 'MLS across',
      qualified_users: [],
    });
    expect(created.status, created.text).toBe(201);
    const conv = created.body.qualified_id.id as string;
    const groupId = bytesOf(created.body.group_id);
    group = { conv, groupId: created.body.group_id };
    const keys = await getMLSPublicKeys(pair.a.publicUrl, a.token);
    await a.mls.createConversation(groupId, bytesOf(keys.body.removal.ed25519));

    const claimed = await claimKeyPackages(pair.a.publicUrl, a, bob, 1, B);
    expect(claimed).toHaveLength(1);
    await a.mls.addClients(groupId, claimed);
    expect(a.refused).toBeUndefined();

    const welcome = await bobWs.next(mlsEvent('conversation.mls-welcome', conv), 20_000);
    expect(welcome.payload[0]).toMatchObject({ qualified_from: { id: alice.id, domain: A } });
    await b.mls.processWelcome(bytesOf(welcome.payload[0].data));
    // As wire-server's owner tells it: bob hears that he joined, as a user of the owner's backend would.
    const joined = await bobWs.next(mlsEvent('conversation.member-join', conv));
    expect(joined.payload[0]).toMatchObject({
      qualified_from: { id: alice.id, domain: A },
      data: { users: [expect.objectContaining({ qualified_id: { id: bob.id, domain: B } })] },
    });
    const seen = await getConversation(pair.b.publicUrl, b.token, { domain: A, id: conv });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({ protocol: 'mls', group_id: created.body.group_id });
    expect(seen.body.members.others).toEqual([expect.objectContaining({ qualified_id: { id: alice.id, domain: A } })]);

    const hello = await a.mls.encrypt(groupId, 'hello from example.com');
    expect((await postMLSMessage(pair.a.publicUrl, a.token, hello)).status).toBe(201);
    const arrived = await bobWs.next(mlsEvent('conversation.mls-message-add', conv));
    expect(await b.mls.decrypt(groupId, bytesOf(arrived.payload[0].data))).toMatchObject({
      kind: 'text',
      text: 'hello from example.com',
    });

    const reply = await b.mls.encrypt(groupId, 'hello from b.example.com');
    const sent = await postMLSMessage(pair.b.publicUrl, b.token, reply);
    expect(sent.status, sent.text).toBe(201);
    const answered = await aliceWs.next(mlsEvent('conversation.mls-message-add', conv));
    expect(answered.payload[0]).toMatchObject({ qualified_from: { id: bob.id, domain: B } });
    expect(await a.mls.decrypt(groupId, bytesOf(answered.payload[0].data))).toMatchObject({
      kind: 'text',
      text: 'hello from b.example.com',
    });
  }, 60_000);

  it('a remote member commits through the owner (send-mls-commit-bundle): adds its own new client, not new users', async () => {
    const groupId = bytesOf(group!.groupId);
    b2 = await mlsDevice(pair.b.publicUrl, bob, 1, B);
    await uploadKeyPackages(pair.b.publicUrl, b2, 1);
    const b2Ws = await openSocket(pair.b.publicUrl, `/v8/await?access_token=${b2.token}&client=${b2.client}`);
    try {
      const own = await claimKeyPackages(pair.b.publicUrl, b, bob, 1, B);
      expect(own).toHaveLength(1);
      await b.mls.addClients(groupId, own);
      expect(b.refused).toBeUndefined();

      const commit = await aliceWs.next(mlsEvent('conversation.mls-message-add', group!.conv));
      expect(commit.payload[0]).toMatchObject({ qualified_from: { id: bob.id, domain: B } });
      expect(await a.mls.decrypt(groupId, bytesOf(commit.payload[0].data))).toMatchObject({ kind: 'commit' });
      const welcome = await b2Ws.next(mlsEvent('conversation.mls-welcome', group!.conv), 20_000);
      await b2.mls.processWelcome(bytesOf(welcome.payload[0].data));

      const hello = await a.mls.encrypt(groupId, 'to both of bob');
      expect((await postMLSMessage(pair.a.publicUrl, a.token, hello)).status).toBe(201);
      const arrived = await b2Ws.next(mlsEvent('conversation.mls-message-add', group!.conv));
      expect(await b2.mls.decrypt(groupId, bytesOf(arrived.payload[0].data))).toMatchObject({ text: 'to both of bob' });
      const atB = await bobWs.next(mainGroupFrom(alice.id, group!.conv));
      expect(await b.mls.decrypt(groupId, bytesOf(atB.payload[0].data))).toMatchObject({ text: 'to both of bob' });

      // A user of b.example.com cannot add users to example.com's conversation, even by commit.
      const carol = await createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Carol' });
      const c1 = await mlsDevice(pair.b.publicUrl, carol, 1, B);
      const carolPackage = (await c1.mls.keyPackage()).bytes;
      await expect(b.mls.addClients(groupId, [carolPackage])).rejects.toThrow();
      expect(b.refused?.status).toBe(403);
      expect(b.refused?.body).toMatchObject({ label: 'invalid-op' });
    } finally {
      await b2Ws.close();
    }
  }, 60_000);

  it('a remote member joins by external commit with the GroupInfo its owner gives (query-group-info)', async () => {
    const groupId = bytesOf(group!.groupId);
    const path = `/v8/conversations/${A}/${group!.conv}/groupinfo`;
    const stranger = await createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Stranger' });
    const refused = await getGroupInfo(pair.b.publicUrl, stranger.token, { domain: A, id: group!.conv });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ label: 'no-conversation' });

    const b3 = await mlsDevice(pair.b.publicUrl, bob, 1, B);
    const info = await fetch(`${pair.b.publicUrl}${path}`, { headers: { authorization: `Bearer ${b3.token}` } });
    expect(info.status).toBe(200);
    expect(info.headers.get('content-type')).toBe('message/mls');
    await b3.mls.joinByExternalCommit(new Uint8Array(await info.arrayBuffer()));
    expect(b3.refused).toBeUndefined();
    const joined = await aliceWs.next(mlsEvent('conversation.mls-message-add', group!.conv));
    expect(joined.payload[0]).toMatchObject({ qualified_from: { id: bob.id, domain: B } });
    expect(await a.mls.decrypt(groupId, bytesOf(joined.payload[0].data))).toMatchObject({ kind: 'commit' });
    expect(await a.mls.epoch(groupId)).toBe(await b3.mls.epoch(groupId));
    // Read on b.example.com, the conversation is as its owner has it now: its epoch too.
    const seen = await getConversation(pair.b.publicUrl, b3.token, { domain: A, id: group!.conv });
    expect(seen.body.epoch).toBe(Number(await a.mls.epoch(groupId)));
    const toB = await bobWs.next(mainGroupFrom(bob.id, group!.conv));
    expect(await b.mls.decrypt(groupId, bytesOf(toB.payload[0].data))).toMatchObject({ kind: 'commit' });
  }, 60_000);

  it('a remote member starts, reads, leaves and resets a subconversation through the owner', async () => {
    const base = `/v8/conversations/${A}/${group!.conv}/subconversations/conference`;
    const asBob = api(pair.b.publicUrl, b.token);
    const fresh = await getSubConversation(pair.b.publicUrl, b.token, { domain: A, id: group!.conv }, 'conference');
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body).toMatchObject({ parent_qualified_id: { id: group!.conv, domain: A }, epoch: 0, members: [] });
    const stranger = await createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Outsider' });
    const outside = await getSubConversation(
      pair.b.publicUrl,
      stranger.token,
      { domain: A, id: group!.conv },
      'conference',
    );
    expect([outside.status, outside.body.label]).toEqual([403, 'access-denied']);

    // Bob's client starts the conference's group; Alice's joins it by external commit.
    const sub = bytesOf(fresh.body.group_id);
    // Its external sender is the parent's: the owner's removal key, which signs the removals.
    const keys = await getMLSPublicKeys(pair.a.publicUrl, a.token);
    await b.mls.createConversation(sub, bytesOf(keys.body.removal.ed25519));
    await b.mls.updateKeyingMaterial(sub);
    expect(b.refused).toBeUndefined();
    const info = await fetch(`${pair.a.publicUrl}${base}/groupinfo`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(info.status).toBe(200);
    await a.mls.joinByExternalCommit(new Uint8Array(await info.arrayBuffer()));
    expect(a.refused).toBeUndefined();
    const joined = await bobWs.next((m: any) => m?.payload?.[0]?.subconv === 'conference');
    expect(await b.mls.decrypt(sub, bytesOf(joined.payload[0].data))).toMatchObject({ kind: 'commit' });
    const read = await getSubConversation(pair.b.publicUrl, b.token, { domain: A, id: group!.conv }, 'conference');
    expect(read.body).toMatchObject({ epoch: 2 });
    expect(read.body.members).toEqual(
      expect.arrayContaining([
        { domain: B, user_id: bob.id, client_id: b.client },
        { domain: A, user_id: alice.id, client_id: a.client },
      ]),
    );

    // Bob's client leaves: Alice's client gets the backend's proposal to remove it.
    expect((await asBob.del(`${base}/self`)).status).toBe(200);
    const removal = await aliceWs.next(
      (m: any) => m?.payload?.[0]?.subconv === 'conference' && m.payload[0].type === 'conversation.mls-message-add',
    );
    expect(await a.mls.decrypt(sub, bytesOf(removal.payload[0].data))).toMatchObject({ kind: 'proposal' });
    const elsewhere = await mlsDevice(pair.b.publicUrl, bob, 1, B);
    const notIn = await api(pair.b.publicUrl, elsewhere.token).del(`${base}/self`);
    expect([notIn.status, notIn.body.label]).toEqual([400, 'mls-protocol-error']);

    // A stale reset is refused; the current one starts the subconversation again.
    const stale = await asBob.del(base, { group_id: fresh.body.group_id, epoch: 1 });
    expect([stale.status, stale.body.label]).toEqual([409, 'mls-stale-message']);
    expect((await asBob.del(base, { group_id: fresh.body.group_id, epoch: 2 })).status).toBe(200);
    const reset = await getSubConversation(pair.b.publicUrl, b.token, { domain: A, id: group!.conv }, 'conference');
    expect(reset.body).toMatchObject({ epoch: 0, members: [] });
    expect(reset.body.group_id).not.toBe(fresh.body.group_id);
  }, 60_000);

  it('a deleted remote client is proposed for removal by the owner (on-client-removed), to every backend', async () => {
    const groupId = bytesOf(group!.groupId);
    const gone = await deleteClient(pair.b.publicUrl, bob.token, b2.client, { password: bob.password });
    expect(gone.status, gone.text).toBe(200);
    const isProposal = mainGroupFrom(bob.id, group!.conv);
    const toAlice = await aliceWs.next(isProposal, 20_000);
    expect(await a.mls.decrypt(groupId, bytesOf(toAlice.payload[0].data))).toMatchObject({ kind: 'proposal' });
    const toBob = await bobWs.next(isProposal, 20_000);
    expect(await b.mls.decrypt(groupId, bytesOf(toBob.payload[0].data))).toMatchObject({ kind: 'proposal' });

    await a.mls.commitPendingProposals(groupId);
    expect(a.refused).toBeUndefined();
    const commit = await bobWs.next(mainGroupFrom(alice.id, group!.conv));
    expect(await b.mls.decrypt(groupId, bytesOf(commit.payload[0].data))).toMatchObject({ kind: 'commit' });
    expect(await b.mls.epoch(groupId)).toBe(await a.mls.epoch(groupId));
  }, 60_000);

  it('takes Welcomes only for users the owner made members of its conversation here', async () => {
    const stranger = await createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Stranger' });
    const welcome = await fetch(`${pair.b.internalUrl}/federation/galley/mls-welcome`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'wire-origin-domain': A, 'x-svc-api-version': 'v1' },
      body: JSON.stringify({
        originating_user: alice.id,
        welcome_message: 'AAAA',
        recipients: [[stranger.id, 'abcdef']],
        qualified_conv_id: { id: crypto.randomUUID(), domain: A },
      }),
    });
    expect(welcome.status).toBe(200);
    expect(await welcome.json()).toBe('MLSWelcomeSent');
    const stream = await getNotifications(pair.b.publicUrl, stranger.token, { size: 100 });
    const types = (stream.body.notifications ?? []).flatMap((n: any) => n.payload).map((e: any) => e.type);
    expect(types).not.toContain('conversation.mls-welcome');

    // A subconversation named without its id is bad input, not the parent's group.
    const malformed = await fetch(`${pair.a.internalUrl}/federation/galley/query-group-info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'wire-origin-domain': B, 'x-svc-api-version': 'v1' },
      body: JSON.stringify({ conv: { tag: 'subconv', value: { conv_id: group!.conv } }, sender: bob.id }),
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 400, label: 'bad-request' });
  });

  it('answers failed_to_send naming the users whose backend is down; their messages wait and arrive', async () => {
    const groupId = bytesOf(group!.groupId);
    await pair.down('b');
    const first = await a.mls.encrypt(groupId, 'while b.example.com is down');
    expect((await postMLSMessage(pair.a.publicUrl, a.token, first)).status).toBe(201);
    await waitFor(async () => {
      const rows = await pair.a.query('SELECT domain FROM federation_backoff WHERE domain = ?', B);
      return rows.length > 0 ? rows : undefined;
    }, 'a failed delivery to b.example.com');
    const second = await a.mls.encrypt(groupId, 'still down');
    const sent = await postMLSMessage(pair.a.publicUrl, a.token, second);
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.failed_to_send).toEqual([{ id: bob.id, domain: B }]);

    const restarted = await pair.up('b');
    const ws = await openSocket(restarted.publicUrl, `/v8/await?access_token=${b.token}&client=${b.client}`);
    try {
      pair.announce('b');
      const texts: string[] = [];
      const seen = new Set<unknown>();
      while (texts.length < 2) {
        const got = await ws.next((m: any) => mainGroupFrom(alice.id, group!.conv)(m) && !seen.has(m), 20_000);
        seen.add(got);
        const d = await b.mls.decrypt(groupId, bytesOf(got.payload[0].data));
        if (d.kind === 'text') texts.push(d.text);
      }
      expect(texts).toEqual(['while b.example.com is down', 'still down']);
    } finally {
      await ws.close();
    }
  }, 60_000);
});
