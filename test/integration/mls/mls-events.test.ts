import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { bytesOf, TsMlsGroup, type TsMlsDevice, tsMlsDevice } from '../../helpers/ts-mls-crafted.js';
import { connect, createUser, type TestUser } from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';
import { postMLSMessage } from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();

type MlsEventType = 'conversation.mls-welcome' | 'conversation.mls-message-add';

/**
 * A client listening on its websocket, opened with its own token (so with its own connection): a
 * queue-consuming client on `GET /events` (its queue: `{type: 'event', data: {event: {id, payload},
 * delivery_tag}}`), a legacy one on `GET /await` (`{id, transient, payload}` frames).
 */
interface Listener {
  device: TsMlsDevice;
  awaitSocket?: TestSocket;
  eventsSocket?: TestSocket;
}

async function listening(device: TsMlsDevice, consumable: boolean): Promise<Listener> {
  const query = `client=${device.client}&access_token=${device.token}`;
  if (!consumable) return { device, awaitSocket: await openSocket(publicUrl, `/v8/await?${query}`) };
  const eventsSocket = await openSocket(publicUrl, `/v8/events?${query}&sync_marker=ready`);
  await eventsSocket.next((m) => m.type === 'synchronization');
  return { device, eventsSocket };
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A notification as each path shows it: its id and the one event of its payload that matched. */
interface Delivered {
  id: string;
  event: Record<string, unknown>;
}

/** The notifications of a client's stream (`GET /notifications?client=`) with a matching event. */
async function fromStream(d: TsMlsDevice, match: (e: any) => boolean): Promise<Delivered[]> {
  const r = await getNotifications(publicUrl, d.token, { client: d.client, size: 1000 });
  expect(r.status, r.text).toBe(200);
  return r.body.notifications
    .filter((n: { payload: unknown[] }) => n.payload.some(match))
    .map((n: { id: string; payload: unknown[] }) => ({ id: n.id, event: n.payload.find(match) }));
}

/** The next notification with a matching event on the client's `/await` socket (awaited, never slept for). */
async function fromAwait(l: Listener, match: (e: any) => boolean): Promise<Delivered> {
  const frame = await l.awaitSocket!.next((m) => Array.isArray(m.payload) && m.payload.some(match));
  return { id: frame.id, event: frame.payload.find(match) };
}

/** The same on the client's `/events` socket. */
async function fromEvents(l: Listener, match: (e: any) => boolean): Promise<Delivered> {
  const m = await l.eventsSocket!.next((f) => f.type === 'event' && f.data.event.payload.some(match));
  return { id: m.data.event.id, event: m.data.event.payload.find(match) };
}

const carrying = (type: MlsEventType, message: Uint8Array) => (e: any) => e.type === type && e.data === b64(message);

/**
 * The event carrying `message` a client was sent: a legacy client's in its stream and on `/await`,
 * the same notification; a queue-consuming client's in its queue only, as gundeck routes them.
 */
async function received(l: Listener, type: MlsEventType, message: Uint8Array) {
  const match = carrying(type, message);
  const stream = await fromStream(l.device, match);
  if (l.eventsSocket !== undefined) {
    expect(stream, `${type} in the stream of ${l.device.client}`).toEqual([]);
    return (await fromEvents(l, match)).event;
  }
  expect(stream, `${type} in the stream of ${l.device.client}`).toHaveLength(1);
  expect(await fromAwait(l, match)).toEqual(stream[0]);
  return stream[0]!.event;
}

describe('MLS events: a commit’s Welcome and messages reach the other clients, on every path', () => {
  // Alice sends from a legacy client; her other client and bob's first consume queues, bob's second does not.
  let alice: TestUser;
  let bob: TestUser;
  let a1: Listener;
  let a2: Listener;
  let b1: Listener;
  let b2: Listener | undefined;
  let group: TsMlsGroup;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([createUser(publicUrl, internalUrl), createUser(publicUrl, internalUrl)]);
    await connect(publicUrl, alice, bob);
    const consumable = { consumable: true };
    a1 = await listening(await tsMlsDevice(publicUrl, alice), false);
    a2 = await listening(await tsMlsDevice(publicUrl, alice, consumable), true);
    b1 = await listening(await tsMlsDevice(publicUrl, bob, consumable), true);
    group = await TsMlsGroup.create(publicUrl, a1.device);
  });
  afterAll(async () => {
    for (const l of [a1, a2, b1, b2]) {
      await l?.awaitSocket?.close();
      await l?.eventsSocket?.close();
    }
  });

  /** The event alice's first client (the sender of everything here) causes. */
  const byAlice = (type: MlsEventType, message: Uint8Array, time: string) => ({
    type,
    conversation: group.conv.id,
    qualified_conversation: group.conv,
    from: alice.id,
    qualified_from: { id: alice.id, domain: 'example.com' },
    time,
    via: 'user',
    data: b64(message),
  });

  /**
   * The sending client was not sent its own message: it is not in its stream, and the first MLS
   * event of the conversation its sockets get is a later message of bob's.
   */
  async function notSentToSender(own: Uint8Array): Promise<void> {
    const inConversation = (e: any) => e.type?.startsWith('conversation.mls-') && e.conversation === group.conv.id;
    expect(await fromStream(a1.device, (e) => inConversation(e) && e.data === b64(own))).toEqual([]);
    const later = await group.encrypt(b1.device, 'later');
    expect((await postMLSMessage(publicUrl, b1.device.token, later)).status).toBe(201);
    expect((await fromAwait(a1, inConversation)).event.data).toBe(b64(later));
  }

  it('sends the Welcome to the clients a commit adds, and nothing to the committer', async () => {
    const adding = await group.prepare(a1.device, { add: [a2.device, b1.device] });
    const sent = await group.send(adding);
    const welcome = bytesOf(adding.welcome!);
    for (const l of [a2, b1])
      expect(await received(l, 'conversation.mls-welcome', welcome)).toEqual(
        byAlice('conversation.mls-welcome', welcome, sent.body.time),
      );
    await notSentToSender(welcome);
    // The commit's member-join goes to the members, but not to the connection (the /await socket
    // opened with the committer's token) whose request caused it, as in wire-server.
    const joined = (e: any) => e.type === 'conversation.member-join' && e.conversation === group.conv.id;
    await fromEvents(a2, joined);
    expect(a1.awaitSocket!.messages.flatMap((m: any) => m.payload ?? []).filter(joined)).toEqual([]);
  });

  it('sends a commit to the group’s other clients, the committer’s own included, and the Welcome to the added one', async () => {
    b2 = await listening(await tsMlsDevice(publicUrl, bob), false);
    const adding = await group.prepare(a1.device, { add: [b2.device] });
    const sent = await group.send(adding);
    const commit = bytesOf(adding.commit);
    const welcome = bytesOf(adding.welcome!);
    for (const l of [a2, b1])
      expect(await received(l, 'conversation.mls-message-add', commit)).toEqual(
        byAlice('conversation.mls-message-add', commit, sent.body.time),
      );
    expect(await received(b2, 'conversation.mls-welcome', welcome)).toEqual(
      byAlice('conversation.mls-welcome', welcome, sent.body.time),
    );
    // The added client was not in the group the commit was made in.
    expect(await fromStream(b2.device, carrying('conversation.mls-message-add', commit))).toEqual([]);
    await notSentToSender(commit);
  });

  it('sends an application message to every other client of the group, the sender’s own included', async () => {
    const message = await group.encrypt(a1.device, 'hello everybody');
    const sent = await postMLSMessage(publicUrl, a1.device.token, message);
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toEqual({ events: [], time: expect.any(String) });
    for (const l of [a2, b1, b2!])
      expect(await received(l, 'conversation.mls-message-add', message)).toEqual(
        byAlice('conversation.mls-message-add', message, sent.body.time),
      );
    await notSentToSender(message);
  });
});
