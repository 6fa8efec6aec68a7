import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { api, cookieOf, createUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { getSelf, postRegister } from '../../helpers/endpoints/brig.js';
import {
  deleteConversationCode,
  getConversation,
  getConversationCode,
  getJoinCodeConv,
  joinConversation,
  postConversation,
  postConversationCode,
  putConversationAccess,
} from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();
const openAccess = { access: ['invite', 'code'], access_role: ['team_member', 'non_team_member', 'guest', 'service'] };

async function guest(): Promise<string> {
  const r = await postRegister(publicUrl, { name: 'Guest' });
  return (await api(publicUrl).post('/access', undefined, { cookie: cookieOf(r) })).body.access_token;
}

describe('guest links', () => {
  it('creates a link (event to members), answers it again with 200, and lets guests join', async () => {
    const owner = await createUser(publicUrl, internalUrl);
    const conv = (await postConversation(publicUrl, owner.token, { name: 'Open', ...openAccess })).body.qualified_id.id;
    const created = await postConversationCode(publicUrl, owner.token, conv, {});
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'conversation.code-update',
      conversation: conv,
      data: { key: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/), code: expect.any(String), has_password: false },
    });
    const { key, code, uri } = created.body.data;
    expect(uri).toBe(`http://127.0.0.1:8080/conversation-join/?key=${key}&code=${code}`);
    expect((await postConversationCode(publicUrl, owner.token, conv, {})).status).toBe(200);
    expect((await getConversationCode(publicUrl, owner.token, conv)).body).toEqual(created.body.data);

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

    const visitor = await guest();
    expect((await getJoinCodeConv(publicUrl, visitor, { key, code })).body).toEqual({
      id: conv,
      name: 'Open',
      has_password: false,
    });
    const joined = await joinConversation(publicUrl, visitor, { key, code });
    expect(joined).toMatchObject({
      status: 200,
      body: { type: 'conversation.member-join', data: { users: [{ conversation_role: 'wire_member' }] } },
    });
    expect((await joinConversation(publicUrl, visitor, { key, code })).status).toBe(204);
    expect((await getConversation(publicUrl, visitor, { domain: 'example.com', id: conv })).status).toBe(200);

    const removed = await deleteConversationCode(publicUrl, owner.token, conv);
    expect(removed.body).toMatchObject({ type: 'conversation.code-delete', data: null });
    expect(await getConversationCode(publicUrl, owner.token, conv)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation-code'),
    });
    expect(await joinConversation(publicUrl, visitor, { key, code })).toMatchObject({ status: 404 });
  });

  it('protects a link with a password; refuses links without the code access or for members only', async () => {
    const owner = await createUser(publicUrl, internalUrl);
    const conv = (await postConversation(publicUrl, owner.token, { name: 'Locked', ...openAccess })).body.qualified_id
      .id;
    const { key, code, has_password } = (
      await postConversationCode(publicUrl, owner.token, conv, { password: 'link-password' })
    ).body.data;
    expect(has_password).toBe(true);
    expect(await postConversationCode(publicUrl, owner.token, conv, {})).toMatchObject({
      status: 409,
      body: wireError(409, 'create-conv-code-conflict'),
    });
    const visitor = await guest();
    expect(await joinConversation(publicUrl, visitor, { key, code })).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-conversation-password'),
    });
    expect(await joinConversation(publicUrl, visitor, { key, code, password: 'wrong-password' })).toMatchObject({
      status: 403,
    });
    expect((await joinConversation(publicUrl, visitor, { key, code, password: 'link-password' })).status).toBe(200);

    const closed = (await postConversation(publicUrl, owner.token, { name: 'Closed' })).body.qualified_id.id;
    expect(await postConversationCode(publicUrl, owner.token, closed, {})).toMatchObject({
      status: 403,
      body: wireError(403, 'access-denied'),
    });
    expect(await getConversationCode(publicUrl, owner.token, closed)).toMatchObject({
      status: 403,
      body: wireError(403, 'access-denied'),
    });
  });

  it('refuses guests when the access roles exclude them', async () => {
    const owner = await createUser(publicUrl, internalUrl);
    const conv = (
      await postConversation(publicUrl, owner.token, {
        access: ['invite', 'code'],
        access_role: ['team_member', 'non_team_member'],
      })
    ).body.qualified_id.id;
    const { key, code } = (await postConversationCode(publicUrl, owner.token, conv, {})).body.data;
    const visitor = await guest();
    expect(await joinConversation(publicUrl, visitor, { key, code })).toMatchObject({
      status: 403,
      body: wireError(403, 'access-denied'),
    });
    const personal = await createUser(publicUrl, internalUrl);
    expect((await joinConversation(publicUrl, personal.token, { key, code })).status).toBe(200);
  });
});

describe('access changes', () => {
  it('remove members the new access roles exclude (reason removed, from the user who changed it)', async () => {
    const owner = await createUser(publicUrl, internalUrl);
    const conv = (await postConversation(publicUrl, owner.token, { name: 'Closing', ...openAccess })).body.qualified_id
      .id;
    const { key, code } = (await postConversationCode(publicUrl, owner.token, conv, {})).body.data;
    const guestToken = await guest();
    expect((await joinConversation(publicUrl, guestToken, { key, code })).status).toBe(200);
    const guestId = (await getSelf(publicUrl, guestToken)).body.id;
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${guestToken}`);
    const update = await putConversationAccess(
      publicUrl,
      owner.token,
      { domain: 'example.com', id: conv },
      {
        access: ['invite', 'code'],
        access_role: ['team_member', 'non_team_member', 'service'],
      },
    );
    expect(update.status).toBe(200);
    const left = await socket.next((m) => m.payload[0].type === 'conversation.member-leave');
    expect(left.payload[0]).toMatchObject({ from: owner.id, data: { user_ids: [guestId], reason: 'removed' } });
    expect((await getConversation(publicUrl, guestToken, { domain: 'example.com', id: conv })).status).toBe(403);
    await socket.close();
  });
});
