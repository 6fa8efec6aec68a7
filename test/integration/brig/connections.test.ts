import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { getConnection, listConnections, postConnection, putSelf } from '../../helpers/endpoints/brig.js';
import { getConversation } from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const { publicUrl, internalUrl } = sharedBackend();
const path = (u: TestUser) => `/v8/connections/example.com/${u.id}`;
const connectionEvents = async (u: TestUser) =>
  (await getNotifications(publicUrl, u.token)).body.notifications
    .map((n: any) => n.payload[0])
    .filter((e: any) => e.type === 'user.connection');

describe('connections', () => {
  it('requests and accepts a connection, with events to both sides', async () => {
    const a = await createUser(publicUrl, internalUrl, { name: 'Ann' });
    const b = await createUser(publicUrl, internalUrl, { name: 'Ben' });
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${b.token}`);
    // The official client posts no body with a JSON content type.
    const sent = await call(publicUrl, path(b), {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json;charset=UTF-8' },
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      from: a.id,
      to: b.id,
      qualified_to: { id: b.id, domain: 'example.com' },
      status: 'sent',
      last_update: expect.any(String),
      conversation: expect.any(String),
      qualified_conversation: { id: expect.any(String), domain: 'example.com' },
    });
    const pending = await socket.next((m) => m.payload[0].type === 'user.connection');
    expect(pending.payload[0]).toEqual({
      type: 'user.connection',
      connection: expect.objectContaining({ from: b.id, to: a.id, status: 'pending' }),
      user: { name: 'Ann' },
    });
    // Asking again re-sends the request (200), as wire-server does.
    expect((await api(publicUrl, a.token).post(path(b))).status).toBe(200);

    const accepted = await api(publicUrl, b.token).put(path(a), { status: 'accepted' });
    expect(accepted).toMatchObject({ status: 200, body: { from: b.id, to: a.id, status: 'accepted' } });
    expect((await api(publicUrl, b.token).put(path(a), { status: 'accepted' })).status).toBe(204);
    expect((await connectionEvents(a)).map((e: any) => [e.connection.status, e.user?.name])).toEqual([
      ['sent', undefined],
      ['sent', undefined],
      ['accepted', 'Ben'],
    ]);
    expect((await api(publicUrl, a.token).get(path(b))).body.status).toBe('accepted');
    const none = await getConnection(publicUrl, a.token, { domain: 'example.com', id: a.id.replace(/.$/, '0') });
    expect(none.status).toBe(404);
    expect(none.text).toBe('');

    // The request opened the connect conversation; the acceptance made it their 1:1.
    const convId = sent.body.conversation;
    const aTypes = (await getNotifications(publicUrl, a.token)).body.notifications.map((n: any) => n.payload[0].type);
    expect(aTypes).toEqual(
      expect.arrayContaining(['conversation.create', 'conversation.connect-request', 'conversation.member-join']),
    );
    const one2one = await getConversation(publicUrl, b.token, { domain: 'example.com', id: convId });
    expect(one2one.body).toMatchObject({ type: 2, members: { self: { id: b.id }, others: [{ id: a.id }] } });
    expect(accepted.body.conversation).toBe(convId);

    // Accepted contacts see profile changes.
    await putSelf(publicUrl, a.token, { name: 'Annie' });
    expect(await socket.next((m) => m.payload[0].type === 'user.update')).toMatchObject({
      payload: [{ type: 'user.update', user: { id: a.id, name: 'Annie' } }],
    });
    await socket.close();
  });

  it('cancels, ignores and blocks, refusing transitions that are not allowed', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const b = await createUser(publicUrl, internalUrl);
    await api(publicUrl, a.token).post(path(b));
    expect(await api(publicUrl, a.token).put(path(b), { status: 'accepted' })).toMatchObject({
      status: 403,
      body: wireError(403, 'bad-conn-update'),
    });
    expect((await api(publicUrl, a.token).put(path(b), { status: 'cancelled' })).body.status).toBe('cancelled');
    expect((await connectionEvents(b)).map((e: any) => e.connection.status)).toEqual(['pending', 'cancelled']);
    expect(await api(publicUrl, a.token).put(path(b), { status: 'sent' })).toMatchObject({ status: 403 });
    // Asking again works, then b ignores, then blocks.
    expect((await api(publicUrl, a.token).post(path(b))).body.status).toBe('sent');
    expect((await api(publicUrl, b.token).put(path(a), { status: 'ignored' })).body.status).toBe('ignored');
    expect((await api(publicUrl, b.token).put(path(a), { status: 'blocked' })).body.status).toBe('blocked');
    // A blocked request stays 'sent' for the requester, silently.
    expect((await api(publicUrl, a.token).post(path(b))).body.status).toBe('sent');
    expect((await api(publicUrl, b.token).get(path(a))).body.status).toBe('blocked');
    expect(await api(publicUrl, b.token).post(path(a))).toMatchObject({
      status: 403,
      body: wireError(403, 'bad-conn-update'),
    });
  });

  it('refuses connecting to oneself, unknown users and unconnected updates', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, a.token);
    expect(await me.post(path(a))).toMatchObject({ status: 400, body: wireError(400, 'invalid-user') });
    expect(
      await postConnection(publicUrl, a.token, { domain: 'example.com', id: '00000000-0000-4000-8000-000000000000' }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'invalid-user'),
    });
    const b = await createUser(publicUrl, internalUrl);
    expect(await me.put(path(b), { status: 'accepted' })).toMatchObject({
      status: 403,
      body: wireError(403, 'not-connected'),
    });
    expect(await me.put(path(b), { status: 'friends' })).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
  });

  it('lists connections in pages', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const others = await Promise.all([1, 2, 3].map(() => createUser(publicUrl, internalUrl)));
    for (const o of others) await api(publicUrl, a.token).post(path(o));
    const first = await listConnections(publicUrl, a.token, { size: 2 });
    expect(first.body.connections).toHaveLength(2);
    expect(first.body.has_more).toBe(true);
    const second = await listConnections(publicUrl, a.token, { size: 2, paging_state: first.body.paging_state });
    expect(second.body.connections).toHaveLength(1);
    expect(second.body.has_more).toBe(false);
    const seen = [...first.body.connections, ...second.body.connections].map((c: any) => c.to).sort();
    expect(seen).toEqual(others.map((o) => o.id).sort());
    expect((await listConnections(publicUrl, a.token, { size: 501 })).status).toBe(400);
    expect(await listConnections(publicUrl, a.token, { paging_state: '%%%' })).toMatchObject({ status: 400 });
  });
});
