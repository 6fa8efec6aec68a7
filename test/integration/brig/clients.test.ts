import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { proteusKeys } from '../../helpers/prekeys.js';
import { api, createUser, login, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import {
  deleteClient,
  getClient,
  getClientPrekeys,
  getSelf,
  getSelfClients,
  getUserClientPrekey,
  getUserClients,
  getUserPrekeyBundle,
  listUsersClients,
  listUsersPrekeys,
  postClient,
  putClient,
} from '../../helpers/endpoints/brig.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const { publicUrl, internalUrl } = sharedBackend();
const expectedId = (key: string) => createHash('sha256').update(key).digest().readBigUInt64BE(0).toString(16);

async function addClient(u: TestUser, extra: Record<string, unknown> = {}, version = 'v8') {
  const keys = await proteusKeys(3);
  const r = await api(publicUrl, u.token).post(`/${version}/clients`, { type: 'permanent', ...keys, ...extra });
  return { r, keys };
}

describe('clients', () => {
  it('registers a client whose id derives from the last key, with an event to other sessions', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const other = await login(publicUrl, u.email, u.password);
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${other.token}`);
    const { r, keys } = await addClient(u, { class: 'desktop', label: 'Laptop', model: 'Tests', cookie: 'laptop' });
    expect(r.status).toBe(201);
    const id = expectedId(keys.lastkey.key);
    expect(r.headers.get('location')).toBe(id);
    expect(r.body).toEqual({
      id,
      type: 'permanent',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      class: 'desktop',
      label: 'Laptop',
      model: 'Tests',
      cookie: 'laptop',
      capabilities: [],
      mls_public_keys: {},
    });
    const event = await socket.next((m) => m.payload[0].type === 'user.client-add');
    expect(event.payload[0].client).toMatchObject({ id, capabilities: { capabilities: [] } });
    expect((await getClient(publicUrl, u.token, id)).body.id).toBe(id);
    expect((await getSelfClients(publicUrl, u.token)).body.map((c: any) => c.id)).toEqual([id]);
    // The same last key again updates the client.
    const again = await postClient(publicUrl, u.token, { type: 'permanent', ...keys, label: 'Renamed' });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id, label: 'Renamed' });
    await socket.close();
  });

  it('needs the password for a second client and allows at most 7 permanent ones', async () => {
    const u = await createUser(publicUrl, internalUrl);
    expect((await addClient(u)).r.status).toBe(201);
    expect((await addClient(u)).r).toMatchObject({ status: 403, body: wireError(403, 'missing-auth') });
    expect((await addClient(u, { password: 'wrong-password' })).r).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-credentials'),
    });
    for (let i = 1; i < 7; i++) expect((await addClient(u, { password: u.password })).r.status).toBe(201);
    expect((await addClient(u, { password: u.password })).r).toMatchObject({
      status: 403,
      body: wireError(403, 'too-many-clients'),
    });
  });

  it('keeps one temporary client: a new one replaces the old', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const first = (await addClient(u, { type: 'temporary' })).r.body.id;
    const second = await addClient(u, { type: 'temporary', password: u.password });
    expect(second.r.status).toBe(201);
    const ids = (await getSelfClients(publicUrl, u.token)).body.map((c: any) => c.id);
    expect(ids).toEqual([second.r.body.id]);
    const notes = (await getNotifications(publicUrl, u.token)).body.notifications.map((n: any) => n.payload[0]);
    expect(notes).toContainEqual({ type: 'user.client-remove', client: { id: first } });
  });

  it('shows capabilities per version and only lets them grow', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const { r } = await addClient(u, { capabilities: ['consumable-notifications', 'legalhold-implicit-consent'] });
    expect(r.body.capabilities).toEqual(['consumable-notifications', 'legalhold-implicit-consent']);
    const me = api(publicUrl, u.token);
    expect((await me.get(`/v7/clients/${r.body.id}`)).body.capabilities).toEqual(['legalhold-implicit-consent']);
    expect((await me.get(`/v6/clients/${r.body.id}`)).body.capabilities).toEqual({
      capabilities: ['legalhold-implicit-consent'],
    });
    expect(
      await putClient(publicUrl, u.token, r.body.id, { capabilities: ['legalhold-implicit-consent'] }),
    ).toMatchObject({
      status: 409,
      body: wireError(409, 'client-capabilities-cannot-be-removed'),
    });
    expect(
      await me.post('/v7/clients', {
        type: 'temporary',
        ...(await proteusKeys(1)),
        capabilities: ['consumable-notifications'],
      }),
    ).toMatchObject({
      status: 400,
    });
    // The seed's spelling is accepted on PUT too.
    const plain = (await addClient(u, { password: u.password })).r.body.id;
    expect(
      (await putClient(publicUrl, u.token, plain, { capabilities: ['consume-notifications'], label: 'Phone' })).status,
    ).toBe(200);
    expect((await getClient(publicUrl, u.token, plain)).body).toMatchObject({
      label: 'Phone',
      capabilities: ['consumable-notifications'],
    });
  });

  it('sets MLS public keys once per signature scheme', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const { r } = await addClient(u);
    const key = Buffer.alloc(32, 7).toString('base64');
    expect((await putClient(publicUrl, u.token, r.body.id, { mls_public_keys: { ed25519: key } })).status).toBe(200);
    expect((await getClient(publicUrl, u.token, r.body.id)).body.mls_public_keys).toEqual({ ed25519: key });
    expect(await putClient(publicUrl, u.token, r.body.id, { mls_public_keys: { ed25519: key } })).toMatchObject({
      status: 400,
      body: wireError(400, 'mls-duplicate-public-key'),
    });
  });

  it('refuses malformed prekeys and a wrong last-key id', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const keys = await proteusKeys(2);
    const junk = { id: 1, key: Buffer.from('not a prekey').toString('base64') };
    expect(
      await postClient(publicUrl, u.token, { type: 'permanent', lastkey: keys.lastkey, prekeys: [junk] }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    const mismatched = { id: 7, key: keys.prekeys[0]!.key }; // the bundle says id 0
    expect(
      (await postClient(publicUrl, u.token, { type: 'permanent', lastkey: keys.lastkey, prekeys: [mismatched] }))
        .status,
    ).toBe(400);
    expect(
      (await postClient(publicUrl, u.token, { type: 'permanent', lastkey: keys.prekeys[1], prekeys: [] })).status,
    ).toBe(400);
    expect((await postClient(publicUrl, u.token, { type: 'permanent', lastkey: keys.lastkey })).status).toBe(400);
    expect(await postClient(publicUrl, u.token, { type: 'legalhold', ...keys })).toMatchObject({
      status: 400,
      body: wireError(400, 'client-error'),
    });
    expect((await getSelfClients(publicUrl, u.token)).body).toEqual([]);
  });

  it('deletes a client with the password, 404 with an empty body afterwards; its prekeys go with it', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const { r, keys } = await addClient(u);
    expect(await deleteClient(publicUrl, u.token, r.body.id, {})).toMatchObject({
      status: 403,
      body: wireError(403, 'missing-auth'),
    });
    expect((await deleteClient(publicUrl, u.token, r.body.id, { password: u.password })).status).toBe(200);
    const gone = await getClient(publicUrl, u.token, r.body.id);
    expect(gone.status).toBe(404);
    expect(gone.text).toBe('');
    expect(await deleteClient(publicUrl, u.token, r.body.id, { password: u.password })).toMatchObject({
      status: 404,
      body: wireError(404, 'client-not-found'),
    });
    const other = await createUser(publicUrl, internalUrl);
    const claim = await getUserClientPrekey(publicUrl, other.token, { domain: 'example.com', id: u.id }, r.body.id);
    expect(claim).toMatchObject({ status: 404, body: wireError(404, 'not-found') });
    // The same last-resort key registers the same id again, with none of the old prekeys.
    const again = await postClient(publicUrl, u.token, {
      type: 'permanent',
      password: u.password,
      lastkey: keys.lastkey,
      prekeys: [keys.prekeys[2]],
    });
    expect(again.body.id).toBe(r.body.id);
    expect((await getClientPrekeys(publicUrl, u.token, r.body.id)).body).toEqual([2, 65535]);
  });

  it('binds access tokens to a client with the first client_id only', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const { r } = await addClient(u);
    const anon = api(publicUrl);
    const bound = await anon.post(`/access?client_id=${r.body.id}`, undefined, { cookie: u.cookie });
    expect(bound.status).toBe(200);
    const second = (await addClient(u, { password: u.password })).r.body.id;
    // Later client ids are ignored: the cookie stays bound to the first client.
    expect((await anon.post(`/access?client_id=${second}`, undefined, { cookie: u.cookie })).status).toBe(200);
    expect((await getSelf(publicUrl, bound.body.access_token)).status).toBe(200);
  });
});

describe('prekeys', () => {
  it('hands out each prekey once, then the last-resort key forever', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const { r, keys } = await addClient(u);
    const peer = await createUser(publicUrl, internalUrl);
    const claimed = [];
    for (let i = 0; i < 5; i++)
      claimed.push(
        (await getUserClientPrekey(publicUrl, peer.token, { domain: 'example.com', id: u.id }, r.body.id)).body.prekey,
      );
    expect(claimed).toEqual([...keys.prekeys, keys.lastkey, keys.lastkey]);
    expect((await getClientPrekeys(publicUrl, u.token, r.body.id)).body).toEqual([65535]);
    expect(await getUserClientPrekey(publicUrl, peer.token, { domain: 'example.com', id: u.id }, 'abc')).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
  });

  it('never gives two simultaneous claims the same prekey', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const keys = await proteusKeys(20);
    const id = (await postClient(publicUrl, u.token, { type: 'permanent', ...keys })).body.id;
    const them = api(publicUrl, (await createUser(publicUrl, internalUrl)).token);
    const claims = await Promise.all(
      Array.from({ length: 20 }, () => them.get(`/v8/users/example.com/${u.id}/prekeys/${id}`)),
    );
    const ids = claims.map((c) => c.body.prekey.id);
    expect(new Set(ids).size).toBe(20);
    expect(ids).not.toContain(65535);
  });

  it('lists clients and prekeys of several users', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const b = await createUser(publicUrl, internalUrl);
    const ca = (await addClient(a)).r.body.id;
    const cb = (await addClient(b, { class: 'phone' })).r.body.id;
    const clients = await listUsersClients(publicUrl, a.token, {
      qualified_users: [
        { id: a.id, domain: 'example.com' },
        { id: b.id, domain: 'example.com' },
      ],
    });
    expect(clients.body).toEqual({
      qualified_user_map: { 'example.com': { [a.id]: [{ id: ca }], [b.id]: [{ id: cb, class: 'phone' }] } },
    });
    expect((await getUserClients(publicUrl, a.token, { domain: 'example.com', id: b.id })).body).toEqual([
      { id: cb, class: 'phone' },
    ]);
    const remote = { id: b.id, domain: 'far.example.org' };
    const prekeys = await listUsersPrekeys(publicUrl, a.token, {
      'example.com': { [b.id]: [cb, 'ffff'] },
      'far.example.org': { [b.id]: ['1'] },
    });
    expect(prekeys.body).toEqual({
      qualified_user_client_prekeys: {
        'example.com': { [b.id]: { [cb]: expect.objectContaining({ id: 0 }), ffff: null } },
      },
      failed_to_list: [remote],
    });
    const bundle = await getUserPrekeyBundle(publicUrl, a.token, { domain: 'example.com', id: b.id });
    expect(bundle.body).toEqual({ user: b.id, clients: [{ client: cb, prekey: expect.objectContaining({ id: 1 }) }] });
  });
});
