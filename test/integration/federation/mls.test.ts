import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A, B, connectAcross, startFederatedPair, type FederatedPair } from '../../helpers/federation.js';
import { bytesOf, claimKeyPackages, type MlsDevice, mlsDevice, postMls, uploadKeyPackages } from '../../helpers/mls.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';

const mlsEvent = (type: string, conv: string) => (m: any) =>
  m?.payload?.[0]?.type === type && m.payload[0].qualified_conversation?.id === conv;

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

  beforeAll(async () => {
    pair = await startFederatedPair();
    [alice, bob] = await Promise.all([
      createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Alice' }),
      createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Bob' }),
    ]);
    await connectAcross({ user: alice, backend: pair.a, domain: A }, { user: bob, backend: pair.b, domain: B });
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

  it('adds a remote client by commit: its backend gets the conversation and the Welcome; messages go both ways', async () => {
    const created = await api(pair.a.publicUrl, a.token).post('/v8/conversations', {
      protocol: 'mls',
      name: 'MLS across',
      qualified_users: [],
    });
    expect(created.status, created.text).toBe(201);
    const conv = created.body.qualified_id.id as string;
    const groupId = bytesOf(created.body.group_id);
    group = { conv, groupId: created.body.group_id };
    const keys = await api(pair.a.publicUrl, a.token).get('/v8/mls/public-keys');
    await a.mls.createConversation(groupId, bytesOf(keys.body.removal.ed25519));

    const claimed = await claimKeyPackages(pair.a.publicUrl, a, bob, 1, B);
    expect(claimed).toHaveLength(1);
    await a.mls.addClients(groupId, claimed);
    expect(a.refused).toBeUndefined();

    const welcome = await bobWs.next(mlsEvent('conversation.mls-welcome', conv), 20_000);
    expect(welcome.payload[0]).toMatchObject({ qualified_from: { id: alice.id, domain: A } });
    await b.mls.processWelcome(bytesOf(welcome.payload[0].data));
    const seen = await api(pair.b.publicUrl, b.token).get(`/v8/conversations/${A}/${conv}`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body).toMatchObject({ protocol: 'mls', group_id: created.body.group_id });
    expect(seen.body.members.others).toEqual([expect.objectContaining({ qualified_id: { id: alice.id, domain: A } })]);

    const hello = await a.mls.encrypt(groupId, 'hello from example.com');
    expect((await postMls(pair.a.publicUrl, a.token, '/v8/mls/messages', hello)).status).toBe(201);
    const arrived = await bobWs.next(mlsEvent('conversation.mls-message-add', conv));
    expect(await b.mls.decrypt(groupId, bytesOf(arrived.payload[0].data))).toMatchObject({
      kind: 'text',
      text: 'hello from example.com',
    });

    const reply = await b.mls.encrypt(groupId, 'hello from b.example.com');
    const sent = await postMls(pair.b.publicUrl, b.token, '/v8/mls/messages', reply);
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
    const b2 = await mlsDevice(pair.b.publicUrl, bob, 1, B);
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
      expect((await postMls(pair.a.publicUrl, a.token, '/v8/mls/messages', hello)).status).toBe(201);
      const arrived = await b2Ws.next(mlsEvent('conversation.mls-message-add', group!.conv));
      expect(await b2.mls.decrypt(groupId, bytesOf(arrived.payload[0].data))).toMatchObject({ text: 'to both of bob' });

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
    const refused = await api(pair.b.publicUrl, stranger.token).get(path);
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
    const stream = await api(pair.b.publicUrl, stranger.token).get('/v8/notifications?size=100');
    const types = (stream.body.notifications ?? []).flatMap((n: any) => n.payload).map((e: any) => e.type);
    expect(types).not.toContain('conversation.mls-welcome');
  });
});
