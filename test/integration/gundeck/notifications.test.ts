import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { addClient } from '../../helpers/clients.js';
import { wireError } from '../../helpers/http.js';
import { api, cookieOf, createUser, login } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { deleteClient, postRegister, putSelf, putSelfLocale } from '../../helpers/endpoints/brig.js';
import { getLastNotification, getNotification, getNotifications } from '../../helpers/endpoints/gundeck.js';

const { publicUrl, internalUrl } = sharedBackend();

const typeOf = (n: any) => n.payload[0].type;

describe('the notification stream', () => {
  it('lists notifications in order, `since` exclusive, with has_more and paging', async () => {
    const u = await createUser(publicUrl, internalUrl);
    for (const locale of ['de', 'fr', 'en'])
      expect((await putSelfLocale(publicUrl, u.token, { locale })).status).toBe(200);
    const all = await getNotifications(publicUrl, u.token);
    expect(all.status).toBe(200);
    expect(all.body.has_more).toBe(false);
    expect(all.body.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const updates = all.body.notifications.filter((n: any) => typeOf(n) === 'user.update');
    expect(updates.map((n: any) => n.payload[0].user.locale)).toEqual(['de', 'fr', 'en']);
    expect(updates[0].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-/);

    const after = await getNotifications(publicUrl, u.token, { since: updates[0].id });
    expect(after.body.notifications.map((n: any) => n.payload[0].user.locale)).toEqual(['fr', 'en']);
    const last = await getLastNotification(publicUrl, u.token);
    expect(last.body).toEqual(updates[2]);
    expect((await getNotification(publicUrl, u.token, updates[1].id)).body).toEqual(updates[1]);
  });

  it('answers unknown and invalid ids per version', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, u.token);
    await putSelfLocale(publicUrl, u.token, { locale: 'de' });
    const unknown = '0b0b0b0b-0b0b-11ee-8b0b-0b0b0b0b0b0b';
    expect(await getNotifications(publicUrl, u.token, { since: unknown })).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
    const v2 = await me.get(`/v2/notifications?since=${unknown}`);
    expect(v2.status).toBe(404);
    expect(v2.body.notifications.length).toBeGreaterThan(0);
    expect(await getNotifications(publicUrl, u.token, { since: '6f1d2a0e-8c33-4b8e-9f3a-0d1c2b3a4f5e' })).toMatchObject(
      {
        status: 400,
        body: wireError(400, 'bad-request'),
      },
    );
    expect((await getNotifications(publicUrl, u.token, { size: 5 })).status).toBe(400);
    expect((await getNotifications(publicUrl, u.token, { size: 20000 })).status).toBe(400);
    expect(await getNotification(publicUrl, u.token, unknown)).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
    // An ephemeral user's stream starts empty: no last notification.
    const guest = await postRegister(publicUrl, { name: 'Guest' });
    const access = await api(publicUrl).post('/access', undefined, { cookie: cookieOf(guest) });
    const none = await getLastNotification(publicUrl, access.body.access_token);
    expect(none).toMatchObject({ status: 404, body: wireError(404, 'not-found') });
  });

  it('pushes events to /await as binary frames, not back to the connection that caused them', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const other = await login(publicUrl, u.email, u.password);
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${u.token}`);
    const otherSocket = await openSocket(publicUrl, `/v8/await?access_token=${other.token}`);

    expect((await putSelf(publicUrl, u.token, { name: 'Renamed' })).status).toBe(200);
    const seen = await otherSocket.next((m) => m.payload?.[0]?.type === 'user.update');
    expect(seen).toEqual({
      id: expect.any(String),
      transient: false,
      payload: [{ type: 'user.update', user: { id: u.id, name: 'Renamed' } }],
    });
    // The socket of the token that made the change gets nothing; a change from elsewhere arrives.
    expect((await putSelf(publicUrl, other.token, { name: 'Again' })).status).toBe(200);
    const mine = await socket.next((m) => m.payload?.[0]?.type === 'user.update');
    expect(mine.payload[0].user.name).toBe('Again');
    expect(socket.messages).toEqual([]);

    socket.send('ping');
    expect(await socket.next((m) => m === 'pong')).toBe('pong');
    socket.send(Buffer.from('ping'));
    expect(await socket.next((m) => m === 'pong')).toBe('pong');
    await socket.close();
    await otherSocket.close();
  });

  it('refuses /await without a token or without an upgrade', async () => {
    await expect(openSocket(publicUrl, '/v8/await')).rejects.toThrow(/401/);
    const u = await createUser(publicUrl, internalUrl);
    expect(await api(publicUrl, u.token).get('/v8/await')).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
  });
});

describe('the notification stream of a user with queue-consuming clients', () => {
  it('keeps only what is for legacy clients, and sends /await only that, as gundeck splits a push', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const other = await login(publicUrl, u.email, u.password);
    const locale = (l: string) => putSelfLocale(publicUrl, other.token, { locale: l });
    const last = (await getLastNotification(publicUrl, u.token)).body.id;
    const since = async (client?: string) =>
      (await getNotifications(publicUrl, u.token, { since: last, client })).body.notifications;
    const listening = await login(publicUrl, u.email, u.password);
    const awaitSocket = await openSocket(publicUrl, `/v8/await?access_token=${listening.token}`);
    const nextOnAwait = async () => (await awaitSocket.next()).payload[0];

    const queued = await addClient(publicUrl, u, { capabilities: ['consumable-notifications'] });
    expect((await locale('de')).status).toBe(200);
    // A legacy client: what is for all of u's clients is stored again, for it.
    const legacy = await addClient(publicUrl, u, { password: u.password });
    expect((await locale('fr')).status).toBe(200);
    expect(await nextOnAwait()).toMatchObject({ type: 'user.client-add', client: { id: legacy } });
    expect(await nextOnAwait()).toMatchObject({ type: 'user.update', user: { locale: 'fr' } });
    const stored = (await since()).map((n: any) => n.payload[0]);
    expect(stored).toEqual([
      expect.objectContaining({ type: 'user.client-add', client: expect.objectContaining({ id: legacy }) }),
      { type: 'user.update', user: { id: u.id, locale: 'fr' } },
    ]);
    expect(await since(legacy)).toEqual(await since());
    expect(await since(queued)).toEqual([]);

    // Without it, nothing is stored again; with another legacy client, it is.
    expect((await deleteClient(publicUrl, u.token, legacy, { password: u.password })).status).toBe(200);
    expect((await locale('nl')).status).toBe(200);
    const legacy2 = await addClient(publicUrl, u, { password: u.password });
    expect(await nextOnAwait()).toMatchObject({ type: 'user.client-add', client: { id: legacy2 } });
    expect((await since()).map((n: any) => n.payload[0].type)).toEqual([
      'user.client-add',
      'user.update',
      'user.client-add',
    ]);
    expect(awaitSocket.messages).toEqual([]);
    await awaitSocket.close();
  });
});
