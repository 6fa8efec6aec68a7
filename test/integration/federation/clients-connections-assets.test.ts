import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAsset, uploadAsset } from '../../helpers/assets.js';
import { addClient } from '../../helpers/clients.js';
import { A, B, announce, srvName, startFederatedPair, type FederatedPair } from '../../helpers/federation.js';
import { wireError } from '../../helpers/http.js';
import { createUser, type TestUser } from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';
import {
  getConnection,
  getUserClient,
  getUserClientPrekey,
  getUserClients,
  getUserPrekeyBundle,
  listUsers,
  listUsersClients,
  listUsersPrekeys,
  postConnection,
  putConnection,
} from '../../helpers/endpoints/brig.js';

const connectionEvent = (to: string, status: string) => (m: any) =>
  m?.payload?.[0]?.type === 'user.connection' &&
  m.payload[0].connection.qualified_to.id === to &&
  m.payload[0].connection.status === status;

/** Users of two backends see each other's clients, claim their prekeys, connect, and share assets. */
describe('federation: clients, prekeys, connections and assets across two backends', () => {
  let pair: FederatedPair;
  let alice: TestUser;
  let bob: TestUser;
  let bobClient: string;

  beforeAll(async () => {
    pair = await startFederatedPair();
    [alice, bob] = await Promise.all([
      createUser(pair.a.publicUrl, pair.a.internalUrl, { name: 'Alice' }),
      createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Bob' }),
    ]);
    bobClient = await addClient(pair.b.publicUrl, bob);
  });
  afterAll(() => pair?.stop());

  it("lists a remote user's clients, alone and with local users", async () => {
    expect((await getUserClients(pair.a.publicUrl, alice.token, { domain: B, id: bob.id })).body).toEqual([
      { id: bobClient },
    ]);
    expect(
      (await getUserClient(pair.a.publicUrl, alice.token, { domain: B, id: bob.id }, bobClient)).body,
    ).toMatchObject({
      id: bobClient,
    });
    expect((await getUserClient(pair.a.publicUrl, alice.token, { domain: B, id: bob.id }, 'abcdef')).status).toBe(404);
    const both = await listUsersClients(pair.a.publicUrl, alice.token, {
      qualified_users: [
        { id: bob.id, domain: B },
        { id: alice.id, domain: A },
      ],
    });
    expect(both.status, both.text).toBe(200);
    expect(both.body.qualified_user_map).toEqual({
      [B]: { [bob.id]: [{ id: bobClient }] },
      [A]: { [alice.id]: [] },
    });
  });

  it("claims a remote client's prekeys: one by one, as a bundle and in a multi-user claim", async () => {
    const one = await getUserClientPrekey(pair.a.publicUrl, alice.token, { domain: B, id: bob.id }, bobClient);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ client: bobClient, prekey: { id: expect.any(Number) } });
    const bundle = await getUserPrekeyBundle(pair.a.publicUrl, alice.token, { domain: B, id: bob.id });
    expect(bundle.body).toMatchObject({ user: bob.id, clients: [{ client: bobClient }] });
    const many = await listUsersPrekeys(pair.a.publicUrl, alice.token, { [B]: { [bob.id]: [bobClient, 'abcdef'] } });
    expect(many.status, many.text).toBe(200);
    expect(many.body.qualified_user_client_prekeys[B][bob.id]).toMatchObject({
      [bobClient]: { key: expect.any(String) },
      abcdef: null,
    });
    expect(many.body.failed_to_list).toBeUndefined();
  });

  it('connects users of two backends: a request, its acceptance, events on both sides', async () => {
    const bobSocket: TestSocket = await openSocket(pair.b.publicUrl, `/v8/await?access_token=${bob.token}`);
    const aliceSocket: TestSocket = await openSocket(pair.a.publicUrl, `/v8/await?access_token=${alice.token}`);
    try {
      const sent = await postConnection(pair.a.publicUrl, alice.token, { domain: B, id: bob.id });
      expect(sent.status, sent.text).toBe(201);
      expect(sent.body).toMatchObject({ status: 'sent', qualified_to: { id: bob.id, domain: B } });
      await bobSocket.next(connectionEvent(alice.id, 'pending'));

      const accepted = await putConnection(
        pair.b.publicUrl,
        bob.token,
        { domain: A, id: alice.id },
        {
          status: 'accepted',
        },
      );
      expect(accepted.status, accepted.text).toBe(200);
      expect(accepted.body).toMatchObject({ status: 'accepted', qualified_to: { id: alice.id, domain: A } });
      await aliceSocket.next(connectionEvent(bob.id, 'accepted'));
      expect((await getConnection(pair.a.publicUrl, alice.token, { domain: B, id: bob.id })).body.status).toBe(
        'accepted',
      );

      // Alice asks again: nothing changes.
      expect((await postConnection(pair.a.publicUrl, alice.token, { domain: B, id: bob.id })).status).toBe(200);
      // Bob blocks: his side only; the remote is not told.
      const blocked = await putConnection(
        pair.b.publicUrl,
        bob.token,
        { domain: A, id: alice.id },
        {
          status: 'blocked',
        },
      );
      expect(blocked.body.status).toBe('blocked');
      expect((await getConnection(pair.a.publicUrl, alice.token, { domain: B, id: bob.id })).body.status).toBe(
        'accepted',
      );
    } finally {
      await Promise.all([bobSocket.close(), aliceSocket.close()]);
    }
  });

  it('withdraws a request on both sides', async () => {
    const carol = await createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Carol' });
    expect((await postConnection(pair.a.publicUrl, alice.token, { domain: B, id: carol.id })).status).toBe(201);
    const cancelled = await putConnection(
      pair.a.publicUrl,
      alice.token,
      { domain: B, id: carol.id },
      { status: 'cancelled' },
    );
    expect(cancelled.body.status).toBe('cancelled');
    const carolSide = await getConnection(pair.b.publicUrl, carol.token, { domain: A, id: alice.id });
    expect(carolSide.body.status).toBe('cancelled');
  });

  it("downloads a remote user's asset through both backends, with the asset's token", async () => {
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251);
    const up = await uploadAsset(pair.b.publicUrl, bob.token, bytes);
    expect(up.status, up.text).toBe(201);
    const path = `/v8/assets/${B}/${up.body.key}`;
    const r = await fetch(new URL(path, pair.a.publicUrl), {
      headers: { authorization: `Bearer ${alice.token}`, 'asset-token': up.body.token },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await r.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    // Without the token, or for a key the remote does not have: not found.
    expect(await getAsset(pair.a.publicUrl, path, alice.token)).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
    expect((await getAsset(pair.a.publicUrl, `/v8/assets/${B}/3-2-${crypto.randomUUID()}`, alice.token)).status).toBe(
      404,
    );
  });

  it('changes nothing when the remote backend cannot be reached', async () => {
    const dave = await createUser(pair.b.publicUrl, pair.b.internalUrl, { name: 'Dave' });
    pair.dns.set(srvName(B), undefined);
    try {
      const r = await postConnection(pair.a.publicUrl, alice.token, { domain: B, id: dave.id });
      expect(r).toMatchObject({ status: 422, body: wireError(422, 'invalid-domain') });
      expect((await getConnection(pair.a.publicUrl, alice.token, { domain: B, id: dave.id })).status).toBe(404);
      // Routes about many users report the unreachable ones instead of failing whole.
      const users = await listUsers(pair.a.publicUrl, alice.token, { qualified_ids: [{ id: dave.id, domain: B }] });
      expect(users.body).toEqual({ found: [], failed: [{ id: dave.id, domain: B }] });
      const prekeys = await listUsersPrekeys(pair.a.publicUrl, alice.token, { [B]: { [bob.id]: [bobClient] } });
      expect(prekeys.body).toEqual({ qualified_user_client_prekeys: {}, failed_to_list: [{ id: bob.id, domain: B }] });
      const clients = await listUsersClients(pair.a.publicUrl, alice.token, {
        qualified_users: [{ id: bob.id, domain: B }],
      });
      expect(clients.body).toEqual({ qualified_user_map: {} });
    } finally {
      announce(pair.dns, B, pair.b);
    }
    const missing = await postConnection(pair.a.publicUrl, alice.token, { domain: B, id: crypto.randomUUID() });
    expect(missing).toMatchObject({ status: 400, body: wireError(400, 'invalid-user') });
  });
});
