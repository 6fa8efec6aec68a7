import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { api, createUser, login, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { postAccess } from '../../helpers/endpoints/brig.js';
import { getConversation } from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

// What each side of a connection hears, in order, as wire-server sends it: brig's `user.connection`
// to each user whose row changed, galley's connect conversation (type 3: `conversation.create` and
// `conversation.connect-request` to the requester) and its acceptance (`conversation.member-join`
// to both, the conversation becoming their 1:1, type 2).

const { publicUrl, internalUrl } = sharedBackend();
const DOMAIN = 'example.com';
const qid = (u: TestUser) => ({ id: u.id, domain: DOMAIN });
const path = (u: TestUser) => `/v8/connections/${DOMAIN}/${u.id}`;
const relevant = (e: any) => e.type === 'user.connection' || e.type.startsWith('conversation.');

/** Reads a user's stream and hands out what came since the last read. */
function stream(u: TestUser) {
  let seen = 0;
  return async () => {
    const r = await getNotifications(publicUrl, u.token, { size: 1000 });
    expect(r.status, r.text).toBe(200);
    const events = r.body.notifications.map((n: any) => n.payload[0]).filter(relevant);
    const fresh = events.slice(seen);
    seen = events.length;
    return fresh;
  };
}

const connection = (from: TestUser, to: TestUser, status: string, conv: { id: string; domain: string }) => ({
  from: from.id,
  to: to.id,
  qualified_to: qid(to),
  status,
  last_update: expect.any(String),
  conversation: conv.id,
  qualified_conversation: conv,
});

/** `user.connection` for the row's owner; `name` is the other user's, present when they asked or accepted. */
const connectionEvent = (
  from: TestUser,
  to: TestUser,
  status: string,
  conv: { id: string; domain: string },
  name?: string,
) => ({
  type: 'user.connection',
  connection: connection(from, to, status, conv),
  ...(name === undefined ? {} : { user: { name } }),
});

const envelope = (type: string, conv: { id: string; domain: string }, from: TestUser) => ({
  type,
  conversation: conv.id,
  qualified_conversation: conv,
  from: from.id,
  qualified_from: qid(from),
  via: 'user',
  time: expect.any(String),
});

const connectRequest = (conv: { id: string; domain: string }, from: TestUser, to: TestUser) => ({
  ...envelope('conversation.connect-request', conv, from),
  data: { qualified_recipient: qid(to), recipient: to.id, message: null, name: null, email: null },
});

const memberJoin = (conv: { id: string; domain: string }, joiner: TestUser) => ({
  ...envelope('conversation.member-join', conv, joiner),
  data: {
    users: [{ qualified_id: qid(joiner), id: joiner.id, conversation_role: 'wire_admin' }],
    user_ids: [joiner.id],
    add_type: 'internal_add',
  },
});

const created = (conv: { id: string; domain: string }, requester: TestUser) => ({
  ...envelope('conversation.create', conv, requester),
  data: expect.objectContaining({
    qualified_id: conv,
    type: 3,
    creator: requester.id,
    members: expect.objectContaining({
      self: expect.objectContaining({ qualified_id: qid(requester) }),
      others: [],
    }),
  }),
});

async function conversationAs(u: TestUser, conv: { id: string; domain: string }) {
  const r = await getConversation(publicUrl, u.token, conv);
  return r.status === 200 ? { status: 200, type: r.body.type, others: r.body.members.others.map((o: any) => o.id) } : r;
}

async function pair() {
  const ann = await createUser(publicUrl, internalUrl, { name: 'Ann' });
  const ben = await createUser(publicUrl, internalUrl, { name: 'Ben' });
  return { ann, ben, annEvents: stream(ann), benEvents: stream(ben) };
}

describe('connection events', () => {
  it('a request and its acceptance: each side hears what wire-server sends, in its order', async () => {
    const { ann, ben, annEvents, benEvents } = await pair();
    // Ben's other device (another session) hears his acceptance; the session that accepts does not,
    // even with a renewed token (the renewal keeps the connection its websocket was opened with).
    const benOther = await login(publicUrl, ben.email, ben.password);
    const acting = await openSocket(publicUrl, `/v8/await?access_token=${ben.token}`);
    const other = await openSocket(publicUrl, `/v8/await?access_token=${benOther.token}`);
    const renewed = await postAccess(publicUrl, ben.token, ben.cookie);
    expect(renewed.status, renewed.text).toBe(200);
    const benToken: string = renewed.body.access_token;

    const sent = await api(publicUrl, ann.token).post(path(ben));
    expect(sent.status, sent.text).toBe(201);
    const conv = sent.body.qualified_conversation;
    expect(sent.body).toEqual(connection(ann, ben, 'sent', conv));

    expect(await annEvents()).toEqual([
      created(conv, ann),
      connectRequest(conv, ann, ben),
      connectionEvent(ann, ben, 'sent', conv),
    ]);
    expect(await benEvents()).toEqual([connectionEvent(ben, ann, 'pending', conv, 'Ann')]);
    expect(await conversationAs(ann, conv)).toEqual({ status: 200, type: 3, others: [] });
    expect(await conversationAs(ben, conv)).toMatchObject({ status: 403 });

    const accepted = await api(publicUrl, benToken).put(path(ann), { status: 'accepted' });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toEqual(connection(ben, ann, 'accepted', conv));

    expect(await annEvents()).toEqual([memberJoin(conv, ben), connectionEvent(ann, ben, 'accepted', conv, 'Ben')]);
    expect(await benEvents()).toEqual([memberJoin(conv, ben), connectionEvent(ben, ann, 'accepted', conv)]);
    expect(await conversationAs(ann, conv)).toEqual({ status: 200, type: 2, others: [ben.id] });
    expect(await conversationAs(ben, conv)).toEqual({ status: 200, type: 2, others: [ann.id] });

    // Sockets get what the stream has, the acting session's own doings excepted.
    const accept = (m: any) => m.payload[0].type === 'user.connection' && m.payload[0].connection.status === 'accepted';
    await other.next(accept); // takes the acceptance out of `messages`: what came before it stays
    const seen = (s: typeof other) => s.messages.map((m: any) => [m.payload[0].type, m.payload[0].connection?.status]);
    expect(seen(other)).toEqual([
      ['user.connection', 'pending'],
      ['conversation.member-join', undefined],
    ]);
    expect(seen(acting)).toEqual([['user.connection', 'pending']]);
    await acting.close();
    await other.close();
  });

  it('asking again repeats the request to both sides', async () => {
    const { ann, ben, annEvents, benEvents } = await pair();
    const first = await api(publicUrl, ann.token).post(path(ben));
    const conv = first.body.qualified_conversation;
    await annEvents();
    await benEvents();
    const again = await api(publicUrl, ann.token).post(path(ben));
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(connection(ann, ben, 'sent', conv));
    // The connect conversation exists: no second `conversation.create`, the request again.
    expect(await annEvents()).toEqual([connectRequest(conv, ann, ben), connectionEvent(ann, ben, 'sent', conv)]);
    expect(await benEvents()).toEqual([connectionEvent(ben, ann, 'pending', conv, 'Ann')]);
  });

  it('mutual requests: the second request accepts the first', async () => {
    const { ann, ben, annEvents, benEvents } = await pair();
    const conv = (await api(publicUrl, ann.token).post(path(ben))).body.qualified_conversation;
    await annEvents();
    await benEvents();
    const mutual = await api(publicUrl, ben.token).post(path(ann));
    expect(mutual.status, mutual.text).toBe(200);
    expect(mutual.body).toEqual(connection(ben, ann, 'accepted', conv));
    expect(await annEvents()).toEqual([memberJoin(conv, ben), connectionEvent(ann, ben, 'accepted', conv, 'Ben')]);
    expect(await benEvents()).toEqual([memberJoin(conv, ben), connectionEvent(ben, ann, 'accepted', conv)]);
    expect(await conversationAs(ben, conv)).toEqual({ status: 200, type: 2, others: [ann.id] });
  });

  it('a cancelled request, then one the other way, accepted: the connect conversation follows', async () => {
    const { ann, ben, annEvents, benEvents } = await pair();
    const conv = (await api(publicUrl, ann.token).post(path(ben))).body.qualified_conversation;
    await annEvents();
    await benEvents();

    // Cancelling, Ann leaves the connect conversation (silently); both hear the cancellation, unnamed.
    expect((await api(publicUrl, ann.token).put(path(ben), { status: 'cancelled' })).status).toBe(200);
    expect(await annEvents()).toEqual([connectionEvent(ann, ben, 'cancelled', conv)]);
    expect(await benEvents()).toEqual([connectionEvent(ben, ann, 'cancelled', conv)]);
    expect(await conversationAs(ann, conv)).toMatchObject({ status: 403 });
    expect(await conversationAs(ben, conv)).toMatchObject({ status: 403 });

    // Ben asks: he takes the (empty) connect conversation, and only the request is announced.
    const asked = await api(publicUrl, ben.token).post(path(ann));
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body).toEqual(connection(ben, ann, 'sent', conv));
    expect(await benEvents()).toEqual([connectRequest(conv, ben, ann), connectionEvent(ben, ann, 'sent', conv)]);
    expect(await annEvents()).toEqual([connectionEvent(ann, ben, 'pending', conv, 'Ben')]);
    expect(await conversationAs(ben, conv)).toEqual({ status: 200, type: 3, others: [] });
    expect(await conversationAs(ann, conv)).toMatchObject({ status: 403 });

    // Ann accepts: she joins, and it is their 1:1.
    expect((await api(publicUrl, ann.token).put(path(ben), { status: 'accepted' })).status).toBe(200);
    expect(await annEvents()).toEqual([memberJoin(conv, ann), connectionEvent(ann, ben, 'accepted', conv)]);
    expect(await benEvents()).toEqual([memberJoin(conv, ann), connectionEvent(ben, ann, 'accepted', conv, 'Ann')]);
    expect(await conversationAs(ann, conv)).toEqual({ status: 200, type: 2, others: [ben.id] });
    expect(await conversationAs(ben, conv)).toEqual({ status: 200, type: 2, others: [ann.id] });
  });

  it('blocking leaves the 1:1 silently; unblocking takes it back', async () => {
    const { ann, ben, annEvents, benEvents } = await pair();
    const conv = (await api(publicUrl, ann.token).post(path(ben))).body.qualified_conversation;
    expect((await api(publicUrl, ben.token).put(path(ann), { status: 'accepted' })).status).toBe(200);
    await annEvents();
    await benEvents();

    expect((await api(publicUrl, ben.token).put(path(ann), { status: 'blocked' })).status).toBe(200);
    expect(await benEvents()).toEqual([connectionEvent(ben, ann, 'blocked', conv)]);
    expect(await annEvents()).toEqual([]);
    expect(await conversationAs(ben, conv)).toMatchObject({ status: 403 });
    expect(await conversationAs(ann, conv)).toEqual({ status: 200, type: 2, others: [] });

    expect((await api(publicUrl, ben.token).put(path(ann), { status: 'accepted' })).status).toBe(200);
    expect(await benEvents()).toEqual([connectionEvent(ben, ann, 'accepted', conv)]);
    expect(await annEvents()).toEqual([]);
    expect(await conversationAs(ben, conv)).toEqual({ status: 200, type: 2, others: [ann.id] });
  });
});
