import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { proteusKeys } from '../../helpers/prekeys.js';
import { addClient } from '../../helpers/clients.js';
import { otrMessage, postOtr } from '../../helpers/otr.js';
import { api, connect, createUser, login, type TestUser } from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';
import { deleteClient, getClient, postClient, putSelfLocale } from '../../helpers/endpoints/brig.js';
import { postConversation } from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const shared = sharedBackend();

async function consumingClient(base: string, u: TestUser): Promise<string> {
  const keys = await proteusKeys(1);
  const r = await postClient(base, u.token, {
    type: 'permanent',
    ...keys,
    capabilities: ['consumable-notifications'],
  });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

const isEvent = (type: string) => (m: any) => m.type === 'event' && m.data.event.payload[0].type === type;
const changeLocale = (base: string, token: string, locale: string) => putSelfLocale(base, token, { locale });

describe('GET /events', () => {
  const { publicUrl, internalUrl } = shared;

  it('delivers the queue: a sync marker, live events with tags, redelivery of what was not acked', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const cid = await consumingClient(publicUrl, u);
    const other = await login(publicUrl, u.email, u.password);
    let socket = await openSocket(publicUrl, `/v8/events?client=${cid}&sync_marker=m&access_token=${u.token}`);
    const sync = await socket.next((m) => m.type === 'synchronization');
    expect(sync).toEqual({
      type: 'synchronization',
      data: { marker_id: expect.any(String), delivery_tag: expect.any(Number) },
    });
    socket.send(JSON.stringify({ type: 'ack', data: { delivery_tag: sync.data.delivery_tag, multiple: false } }));

    await changeLocale(publicUrl, other.token, 'de');
    const first = await socket.next(isEvent('user.update'));
    expect(first.data.event).toEqual({
      id: expect.any(String),
      payload: [{ type: 'user.update', user: { id: u.id, locale: 'de' } }],
    });
    socket.send(JSON.stringify({ type: 'ack', data: { delivery_tag: first.data.delivery_tag, multiple: false } }));
    await changeLocale(publicUrl, other.token, 'fr');
    const second = await socket.next(isEvent('user.update'));
    expect(second.data.delivery_tag).toBeGreaterThan(first.data.delivery_tag);
    await socket.close(); // 'fr' was never acknowledged

    socket = await openSocket(
      publicUrl,
      `/v8/events?client_id=${cid}&sync_marker=after-reconnect&access_token=${u.token}`,
    );
    // The backlog comes first: what was never acknowledged (the client-add and 'fr', not 'de').
    const backlog = [await socket.next(), await socket.next()];
    expect(backlog.map((m) => m.data.event.payload[0].type)).toEqual(['user.client-add', 'user.update']);
    expect(backlog[1].data.event).toEqual(second.data.event);
    const marker = await socket.next();
    expect(marker.type).toBe('synchronization');
    expect(marker.data.marker_id).toBe('after-reconnect');
    // multiple: true acknowledges everything up to the tag.
    socket.send(JSON.stringify({ type: 'ack', data: { delivery_tag: marker.data.delivery_tag, multiple: true } }));
    await socket.close();
    socket = await openSocket(publicUrl, `/v8/events?client=${cid}&sync_marker=m&access_token=${u.token}`);
    expect(await socket.next()).toMatchObject({ type: 'synchronization' });
    await socket.close();
  });

  it('sends a synchronization marker only to a client that asked for one with sync_marker', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const cid = await consumingClient(publicUrl, u);
    const other = await login(publicUrl, u.email, u.password);
    const socket = await openSocket(publicUrl, `/v8/events?client=${cid}&access_token=${u.token}`);
    // The backlog (the client-add), then the next live event: nothing between them.
    const backlog = await socket.next();
    expect(backlog.data.event.payload[0].type).toBe('user.client-add');
    await changeLocale(publicUrl, other.token, 'de');
    const live = await socket.next();
    expect(live.type).toBe('event');
    expect(live.data.event.payload[0]).toEqual({ type: 'user.update', user: { id: u.id, locale: 'de' } });
    await socket.close();
  });

  it('keeps acknowledgements ahead of an unacknowledged event until that one is acknowledged too', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const cid = await consumingClient(publicUrl, u);
    const other = await login(publicUrl, u.email, u.password);
    const ack = (s: TestSocket, tag: number, multiple = false) =>
      s.send(JSON.stringify({ type: 'ack', data: { delivery_tag: tag, multiple } }));
    let socket = await openSocket(publicUrl, `/v8/events?client=${cid}&sync_marker=m&access_token=${u.token}`);
    ack(socket, (await socket.next((m) => m.type === 'synchronization')).data.delivery_tag, true);
    const events = [];
    for (const locale of ['de', 'fr', 'nl']) {
      await changeLocale(publicUrl, other.token, locale);
      events.push(await socket.next(isEvent('user.update')));
    }
    const [de, fr, nl] = events.map((e) => e.data.delivery_tag as number);
    expect(de! < fr! && fr! < nl!).toBe(true);
    ack(socket, Number.MAX_SAFE_INTEGER, true); // a tag never handed out acknowledges nothing
    ack(socket, nl!);
    ack(socket, fr!);
    await socket.close();

    socket = await openSocket(publicUrl, `/v8/events?client=${cid}&sync_marker=m&access_token=${u.token}`);
    const backlog = await socket.next();
    expect(backlog.data).toEqual({ event: events[0].data.event, delivery_tag: de });
    expect(await socket.next()).toMatchObject({ type: 'synchronization' });
    ack(socket, de!);
    await socket.close();
    socket = await openSocket(publicUrl, `/v8/events?client=${cid}&sync_marker=m&access_token=${u.token}`);
    expect(await socket.next()).toMatchObject({ type: 'synchronization' });
    await socket.close();
  });

  it("queues only the notifications meant for the client, not the user's other clients'", async () => {
    const [u, v] = [await createUser(publicUrl, internalUrl), await createUser(publicUrl, internalUrl)];
    await connect(publicUrl, u, v);
    const conv = await postConversation(publicUrl, u.token, {
      qualified_users: [{ id: v.id, domain: 'example.com' }],
    });
    expect(conv.status, conv.text).toBe(201);
    const mine = await consumingClient(publicUrl, u);
    const others = await addClient(publicUrl, u, { password: u.password, capabilities: ['consumable-notifications'] });
    const sender = await addClient(publicUrl, v);
    const only = otrMessage(sender, [{ user: u.id, client: others, text: 'for the other client' }], { ignoreAll: {} });
    expect((await postOtr(publicUrl, v.token, conv.body.qualified_id.id, only)).status).toBe(201);

    const queued = async (client: string) => {
      const socket = await openSocket(publicUrl, `/v8/events?client=${client}&sync_marker=m&access_token=${u.token}`);
      const types: string[] = [];
      for (let m = await socket.next(); m.type === 'event'; m = await socket.next())
        types.push(m.data.event.payload[0].type);
      await socket.close();
      return types;
    };
    expect(await queued(others)).toContain('conversation.otr-message-add');
    expect(await queued(mine)).toEqual(['user.client-add', 'user.client-add']);
  });

  it("gives a client-less socket what is for all of the user's clients, while one of them consumes a queue", async () => {
    const [u, v] = [await createUser(publicUrl, internalUrl), await createUser(publicUrl, internalUrl)];
    await connect(publicUrl, u, v);
    const conv = await postConversation(publicUrl, v.token, {
      qualified_users: [{ id: u.id, domain: 'example.com' }],
    });
    expect(conv.status, conv.text).toBe(201);
    const sender = await addClient(publicUrl, v);
    const other = await login(publicUrl, u.email, u.password);
    const temporary = await openSocket(publicUrl, `/v8/events?access_token=${u.token}`);
    const nextPayload = async () => (await temporary.next()).data.event.payload[0];

    await changeLocale(publicUrl, other.token, 'de'); // not here: u has no queue-consuming client
    const cid = await consumingClient(publicUrl, u);
    expect(await nextPayload()).toMatchObject({ type: 'user.client-add', client: { id: cid } });
    const toClient = otrMessage(sender, [{ user: u.id, client: cid, text: 'for cid only' }], { ignoreAll: {} });
    expect((await postOtr(publicUrl, v.token, conv.body.qualified_id.id, toClient)).status).toBe(201);
    await changeLocale(publicUrl, other.token, 'fr'); // for all of u's clients: here, after no message
    expect(await nextPayload()).toEqual({ type: 'user.update', user: { id: u.id, locale: 'fr' } });

    // Without a queue-consuming client again: the client-remove is not here, the next client-add is.
    expect((await deleteClient(publicUrl, u.token, cid, { password: u.password })).status).toBe(200);
    const cid2 = await addClient(publicUrl, u, { password: u.password, capabilities: ['consumable-notifications'] });
    expect(await nextPayload()).toMatchObject({ type: 'user.client-add', client: { id: cid2 } });
    expect(temporary.messages).toEqual([]);
    await temporary.close();
  });

  it('lets one socket of a client consume its queue; the next one takes over what is unacknowledged when it closes', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const cid = await consumingClient(publicUrl, u);
    const other = await login(publicUrl, u.email, u.password);
    const ack = (s: TestSocket, tag: number, multiple = false) =>
      s.send(JSON.stringify({ type: 'ack', data: { delivery_tag: tag, multiple } }));
    const first = await openSocket(publicUrl, `/v8/events?client=${cid}&sync_marker=one&access_token=${u.token}`);
    const second = await openSocket(publicUrl, `/v8/events?client=${cid}&sync_marker=two&access_token=${u.token}`);
    const added = await first.next();
    expect(added.data.event.payload[0].type).toBe('user.client-add');
    expect(await first.next()).toMatchObject({ type: 'synchronization', data: { marker_id: 'one' } });
    await changeLocale(publicUrl, other.token, 'de');
    const de = await first.next(isEvent('user.update'));
    ack(first, added.data.delivery_tag);
    ack(first, de.data.delivery_tag);
    await changeLocale(publicUrl, other.token, 'fr');
    const fr = await first.next(isEvent('user.update'));
    expect(fr.data.event.payload[0].user.locale).toBe('fr');
    ack(second, fr.data.delivery_tag, true); // the waiting socket was handed nothing: it acknowledges nothing

    await first.close();
    // Nothing came while it waited: first what the first socket left unacknowledged, then its own marker.
    expect((await second.next()).data).toEqual(fr.data);
    expect(await second.next()).toMatchObject({ type: 'synchronization', data: { marker_id: 'two' } });
    await changeLocale(publicUrl, other.token, 'nl');
    expect((await second.next()).data.event.payload[0].user.locale).toBe('nl');
    await second.close();
  });

  it('sets up a queue for a client through the internal API', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const keys = await proteusKeys(1);
    const cid = (await postClient(publicUrl, u.token, { type: 'permanent', ...keys })).body.id;
    expect((await api(internalUrl).post(`/i/users/${u.id}/clients/${cid}/consumable-notifications`)).status).toBe(200);
    const socket = await openSocket(publicUrl, `/v8/events?client=${cid}&sync_marker=m&access_token=${u.token}`);
    expect(await socket.next()).toMatchObject({ type: 'synchronization' });
    await changeLocale(publicUrl, (await login(publicUrl, u.email, u.password)).token, 'de');
    expect((await socket.next(isEvent('user.update'))).data.delivery_tag).toEqual(expect.any(Number));
    await socket.close();
  });

  it('closes on messages it cannot parse', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const cid = await consumingClient(publicUrl, u);
    const socket = await openSocket(publicUrl, `/v8/events?client=${cid}&sync_marker=m&access_token=${u.token}`);
    await socket.next((m) => m.type === 'synchronization');
    const waiting = await openSocket(publicUrl, `/v8/events?client=${cid}&sync_marker=w&access_token=${u.token}`);
    socket.send('{"type":"nonsense"}');
    expect(await socket.closed).toBe(1003);
    // The client's socket waiting for the queue takes over: the unacknowledged client-add, its marker.
    expect((await waiting.next()).data.event.payload[0].type).toBe('user.client-add');
    expect(await waiting.next()).toMatchObject({ type: 'synchronization', data: { marker_id: 'w' } });
    await waiting.close();
  });

  it('does not exist before v8', async () => {
    const u = await createUser(publicUrl, internalUrl);
    await expect(openSocket(publicUrl, `/v7/events?access_token=${u.token}`)).rejects.toThrow(/404/);
  });

  it('marks a client active when it fetches notifications, to the next whole week', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const cid = await consumingClient(publicUrl, u);
    expect((await getClient(publicUrl, u.token, cid)).body.last_active).toBeUndefined();
    await getNotifications(publicUrl, u.token, { client: cid });
    const lastActive = (await getClient(publicUrl, u.token, cid)).body.last_active;
    expect(lastActive).toMatch(/^\d{4}-\d\d-\d\dT00:00:00Z$/);
    const week = 7 * 24 * 3600 * 1000;
    expect(Date.parse(lastActive) % week).toBe(0);
    expect(Date.parse(lastActive)).toBeGreaterThan(Date.now());
    expect(Date.parse(lastActive) - Date.now()).toBeLessThanOrEqual(week);
  });
});

describe('GET /events after notifications expired', () => {
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([['gundeck.yaml', ['settings', 'notificationTTL'], 1]]);
  });
  afterAll(() => b?.stop());

  it('says notifications were missed until the client acknowledges a full sync', async () => {
    const email = `ttl-${Date.now()}@example.com`;
    await api(b.internalUrl).post('/i/users', { name: 'TTL', email, password: 'secret-password' });
    const { token } = await login(b.publicUrl, email, 'secret-password');
    const u = { token } as TestUser;
    const cid = await consumingClient(b.publicUrl, u);
    await changeLocale(b.publicUrl, token, 'de');
    // The notification TTL is one second: the queued event expires unread.
    await new Promise((r) => setTimeout(r, 1100));

    let socket: TestSocket = await openSocket(
      b.publicUrl,
      `/v8/events?client=${cid}&sync_marker=m&access_token=${token}`,
    );
    expect(await socket.next()).toEqual({ type: 'notifications_missed' });
    socket.send(JSON.stringify({ type: 'ack', data: { delivery_tag: 1, multiple: true } }));
    expect(await socket.closed).toBe(1003);

    socket = await openSocket(b.publicUrl, `/v8/events?client=${cid}&sync_marker=m&access_token=${token}`);
    expect(await socket.next()).toEqual({ type: 'notifications_missed' });
    socket.send(JSON.stringify({ type: 'ack_full_sync' }));
    expect(await socket.next()).toMatchObject({ type: 'synchronization' });
    await socket.close();
    socket = await openSocket(b.publicUrl, `/v8/events?client=${cid}&sync_marker=m&access_token=${token}`);
    expect(await socket.next()).toMatchObject({ type: 'synchronization' });
    await socket.close();
    // The stream forgot it too.
    expect((await getNotifications(b.publicUrl, token)).body.notifications).toEqual([]);
  });

  it('says nothing was missed when the expired notifications had all been acknowledged', async () => {
    const email = `ttl-acked-${Date.now()}@example.com`;
    await api(b.internalUrl).post('/i/users', { name: 'TTL', email, password: 'secret-password' });
    const { token } = await login(b.publicUrl, email, 'secret-password');
    const cid = await consumingClient(b.publicUrl, { token } as TestUser);
    let socket: TestSocket = await openSocket(
      b.publicUrl,
      `/v8/events?client=${cid}&sync_marker=m&access_token=${token}`,
    );
    await socket.next((m) => m.type === 'synchronization');
    await changeLocale(b.publicUrl, token, 'de');
    const tag = (await socket.next(isEvent('user.update'))).data.delivery_tag;
    socket.send(JSON.stringify({ type: 'ack', data: { delivery_tag: tag, multiple: true } }));
    await socket.close();
    await new Promise((r) => setTimeout(r, 1100)); // the TTL is one second

    socket = await openSocket(b.publicUrl, `/v8/events?client=${cid}&sync_marker=m&access_token=${token}`);
    expect(await socket.next()).toMatchObject({ type: 'synchronization' });
    await socket.close();
  });
});
