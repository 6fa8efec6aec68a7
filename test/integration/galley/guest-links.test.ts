import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { api, cookieOf, createUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';

const { publicUrl, internalUrl } = sharedBackend();
const openAccess = { access: ['invite', 'code'], access_role: ['team_member', 'non_team_member', 'guest', 'service'] };

async function guest(): Promise<string> {
  const r = await api(publicUrl).post('/v8/register', { name: 'Guest' });
  return (await api(publicUrl).post('/access', undefined, { cookie: cookieOf(r) })).body.access_token;
}

describe('guest links', () => {
  it('creates a link (event to members), answers it again with 200, and lets guests join', async () => {
    const owner = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, owner.token);
    const conv = (await me.post('/v8/conversations', { name: 'Open', ...openAccess })).body.qualified_id.id;
    const created = await me.post(`/v8/conversations/${conv}/code`, {});
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'conversation.code-update',
      conversation: conv,
      data: { key: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/), code: expect.any(String), has_password: false },
    });
    const { key, code, uri } = created.body.data;
    expect(uri).toBe(`http://127.0.0.1:8080/conversation-join/?key=${key}&code=${code}`);
    expect((await me.post(`/v8/conversations/${conv}/code`, {})).status).toBe(200);
    expect((await me.get(`/v8/conversations/${conv}/code`)).body).toEqual(created.body.data);

    expect(
      (
        await call(publicUrl, '/v8/conversations/code-check', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ key, code }),
        })
      ).status,
    ).toBe(200);
    expect(await api(publicUrl).post('/v8/conversations/code-check', { key, code: 'wrong' })).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation-code'),
    });

    const visitor = api(publicUrl, await guest());
    expect((await visitor.get(`/v8/conversations/join?key=${key}&code=${code}`)).body).toEqual({
      id: conv,
      name: 'Open',
      has_password: false,
    });
    const joined = await visitor.post('/v8/conversations/join', { key, code });
    expect(joined).toMatchObject({
      status: 200,
      body: { type: 'conversation.member-join', data: { users: [{ conversation_role: 'wire_member' }] } },
    });
    expect((await visitor.post('/v8/conversations/join', { key, code })).status).toBe(204);
    expect((await visitor.get(`/v8/conversations/example.com/${conv}`)).status).toBe(200);

    const removed = await me.del(`/v8/conversations/${conv}/code`);
    expect(removed.body).toMatchObject({ type: 'conversation.code-delete', data: null });
    expect(await me.get(`/v8/conversations/${conv}/code`)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation-code'),
    });
    expect(await visitor.post('/v8/conversations/join', { key, code })).toMatchObject({ status: 404 });
  });

  it('protects a link with a password; refuses links without the code access or for members only', async () => {
    const owner = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, owner.token);
    const conv = (await me.post('/v8/conversations', { name: 'Locked', ...openAccess })).body.qualified_id.id;
    const { key, code, has_password } = (await me.post(`/v8/conversations/${conv}/code`, { password: 'link-password' }))
      .body.data;
    expect(has_password).toBe(true);
    expect(await me.post(`/v8/conversations/${conv}/code`, {})).toMatchObject({
      status: 409,
      body: wireError(409, 'create-conv-code-conflict'),
    });
    const visitor = api(publicUrl, await guest());
    expect(await visitor.post('/v8/conversations/join', { key, code })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-conversation-password'),
    });
    expect(await visitor.post('/v8/conversations/join', { key, code, password: 'wrong-password' })).toMatchObject({
      status: 403,
    });
    expect((await visitor.post('/v8/conversations/join', { key, code, password: 'link-password' })).status).toBe(200);

    const closed = (await me.post('/v8/conversations', { name: 'Closed' })).body.qualified_id.id;
    expect(await me.post(`/v8/conversations/${closed}/code`, {})).toMatchObject({
      status: 403,
      body: wireError(403, 'access-denied'),
    });
    expect(await me.get(`/v8/conversations/${closed}/code`)).toMatchObject({
      status: 403,
      body: wireError(403, 'access-denied'),
    });
  });

  it('refuses guests when the access roles exclude them', async () => {
    const owner = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, owner.token);
    const conv = (
      await me.post('/v8/conversations', {
        access: ['invite', 'code'],
        access_role: ['team_member', 'non_team_member'],
      })
    ).body.qualified_id.id;
    const { key, code } = (await me.post(`/v8/conversations/${conv}/code`, {})).body.data;
    const visitor = api(publicUrl, await guest());
    expect(await visitor.post('/v8/conversations/join', { key, code })).toMatchObject({
      status: 403,
      body: wireError(403, 'access-denied'),
    });
    const personal = await createUser(publicUrl, internalUrl);
    expect((await api(publicUrl, personal.token).post('/v8/conversations/join', { key, code })).status).toBe(200);
  });
});

describe('access changes', () => {
  it('remove members the new access roles exclude (reason removed, from the user who changed it)', async () => {
    const owner = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, owner.token);
    const conv = (await me.post('/v8/conversations', { name: 'Closing', ...openAccess })).body.qualified_id.id;
    const { key, code } = (await me.post(`/v8/conversations/${conv}/code`, {})).body.data;
    const guestToken = await guest();
    expect((await api(publicUrl, guestToken).post('/v8/conversations/join', { key, code })).status).toBe(200);
    const guestId = (await api(publicUrl, guestToken).get('/v8/self')).body.id;
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${guestToken}`);
    const update = await me.put(`/v8/conversations/example.com/${conv}/access`, {
      access: ['invite', 'code'],
      access_role: ['team_member', 'non_team_member', 'service'],
    });
    expect(update.status).toBe(200);
    const left = await socket.next((m) => m.payload[0].type === 'conversation.member-leave');
    expect(left.payload[0]).toMatchObject({ from: owner.id, data: { user_ids: [guestId], reason: 'removed' } });
    expect((await api(publicUrl, guestToken).get(`/v8/conversations/example.com/${conv}`)).status).toBe(403);
    await socket.close();
  });
});
