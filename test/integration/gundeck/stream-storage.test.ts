import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { addClient } from '../../helpers/clients.js';
import { wireError } from '../../helpers/http.js';
import { otrMessage, postOtr } from '../../helpers/otr.js';
import { api, connect, createUser, login, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { addMembers, postConversation, putConversationName } from '../../helpers/endpoints/galley.js';
import { getLastNotification, getNotification, getNotifications } from '../../helpers/endpoints/gundeck.js';

// A conversation's messages and events are stored once per notification object for all their
// recipients there, and a user's stream is assembled from their own rows and their conversations'
// (see LogStore). These tests read streams that mix both, across pages, sockets, TTL and restarts.

const q = (id: string) => ({ id, domain: 'example.com' });

/** What a notification carries that tells the actions below apart. */
function markerOf(n: any): string {
  const e = n.payload[0];
  if (e.type === 'conversation.rename') return e.data.name;
  if (e.type === 'user.properties-set') return `p${e.value}`;
  if (e.type === 'conversation.otr-message-add')
    return `${Buffer.from(e.data.text, 'base64').toString()}@${e.data.recipient}`;
  return e.type;
}

/** The whole stream, page after page of `size`, each page from the last id of the one before. */
async function pagedStream(base: string, u: TestUser, query: string, size = 100): Promise<any[]> {
  const all: any[] = [];
  let since: string | undefined;
  for (;;) {
    const r = await api(base, u.token).get(`/v8/notifications?size=${size}${query}${since ? `&since=${since}` : ''}`);
    expect(r.status, r.text).toBe(200);
    all.push(...r.body.notifications);
    since = all.at(-1)?.id;
    if (!r.body.has_more) return all;
  }
}

describe('streams assembled from conversation logs', () => {
  const { publicUrl, internalUrl } = sharedBackend();

  it("merges a user's conversations and own events into one ordered stream, across pages and clients", async () => {
    const [r, a, b] = [
      await createUser(publicUrl, internalUrl),
      await createUser(publicUrl, internalUrl),
      await createUser(publicUrl, internalUrl),
    ];
    await connect(publicUrl, r, a);
    await connect(publicUrl, r, b);
    const r1 = await addClient(publicUrl, r);
    const r2 = await addClient(publicUrl, r, { password: r.password });
    const a1 = await addClient(publicUrl, a);
    const convs: string[] = [];
    for (const users of [[a], [b], [a, b]])
      convs.push(
        (await postConversation(publicUrl, r.token, { qualified_users: users.map((u) => q(u.id)) })).body.qualified_id
          .id,
      );
    const start = (await getLastNotification(publicUrl, r.token)).body.id;

    // Renames in three conversations, properties (the user's own events) and Proteus messages to
    // both of the reader's clients (two notifications of one stored row), interleaved.
    const expected: string[] = [];
    for (let i = 0; i < 75; i++) {
      const conv = convs[i % 3]!;
      if (i % 3 === 0) {
        expect(
          (await putConversationName(publicUrl, r.token, { domain: 'example.com', id: conv }, { name: `n${i}` }))
            .status,
        ).toBe(200);
        expected.push(`n${i}`);
      } else if (i % 3 === 1) {
        expect((await api(publicUrl, r.token).put(`/v8/properties/k${i % 10}`, i)).status).toBe(200);
        expected.push(`p${i}`);
      } else {
        const body = otrMessage(
          a1,
          [
            { user: r.id, client: r1, text: `m${i}` },
            { user: r.id, client: r2, text: `m${i}` },
          ],
          { ignoreAll: {} },
        );
        expect((await postOtr(publicUrl, a.token, convs[0]!, body)).status).toBe(201);
        expected.push(`m${i}@${r1}`, `m${i}@${r2}`);
      }
    }

    const whole = await pagedStream(publicUrl, r, `&since=${start}`, 100);
    expect(whole.map(markerOf)).toEqual(expected);
    expect(new Set(whole.map((n) => n.id)).size).toBe(whole.length);
    // Each client sees its own copy of each message and everything else; pages of 100 break rows apart.
    for (const [client, other] of [
      [r1, r2],
      [r2, r1],
    ])
      expect((await pagedStream(publicUrl, r, `&client=${client}&since=${start}`, 100)).map(markerOf)).toEqual(
        expected.filter((m) => !m.endsWith(`@${other}`)),
      );
    // A message's two notifications have ids of their own, each readable alone and as a `since`.
    const pair = whole.filter((n) => markerOf(n).startsWith('m2@'));
    expect(pair).toHaveLength(2);
    for (const n of pair) expect((await getNotification(publicUrl, r.token, n.id)).body).toEqual(n);
    const afterFirst = await getNotifications(publicUrl, r.token, { since: pair[0].id, size: 100 });
    expect(afterFirst.body.notifications[0]).toEqual(pair[1]);
    expect((await getLastNotification(publicUrl, r.token, { client: r1 })).body).toEqual(
      whole.filter((n) => !markerOf(n).endsWith(`@${r2}`)).at(-1),
    );
  });

  it('gives live frames the ids their stored copies have, so a reader goes on from a frame', async () => {
    const [r, a] = [await createUser(publicUrl, internalUrl), await createUser(publicUrl, internalUrl)];
    await connect(publicUrl, r, a);
    const conv = (await postConversation(publicUrl, a.token, { qualified_users: [q(r.id)] })).body.qualified_id.id;
    const ws = await openSocket(publicUrl, `/v8/await?access_token=${r.token}`);
    const frames: any[] = [];
    for (let i = 0; i < 6; i++) {
      await putConversationName(publicUrl, a.token, { domain: 'example.com', id: conv }, { name: `live${i}` });
      frames.push(await ws.next((m) => m.payload?.[0]?.data?.name === `live${i}`));
    }
    await ws.close();
    const rest = await getNotifications(publicUrl, r.token, { since: frames[2].id, size: 100 });
    expect(rest.body.notifications).toEqual(frames.slice(3).map((f) => ({ id: f.id, payload: f.payload })));
    // A new member sees the conversation from their joining on, not what came before.
    const c = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, a, c);
    expect(
      (
        await addMembers(
          publicUrl,
          a.token,
          { domain: 'example.com', id: conv },
          {
            qualified_users: [q(c.id)],
          },
        )
      ).status,
    ).toBe(200);
    await putConversationName(publicUrl, a.token, { domain: 'example.com', id: conv }, { name: 'after-join' });
    const names = (await getNotifications(publicUrl, c.token, { size: 1000 })).body.notifications
      .filter((n: any) => n.payload[0].type === 'conversation.rename')
      .map(markerOf);
    expect(names).toEqual(['after-join']);
  });
});

describe('stream storage over time', () => {
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([['gundeck.yaml', ['settings', 'notificationTTL'], 2]]);
  });
  afterAll(() => b?.stop());

  it('forgets conversation rows after the TTL, and goes on storing for the same subscribers', async () => {
    const [r, a] = [await createUser(b.publicUrl, b.internalUrl), await createUser(b.publicUrl, b.internalUrl)];
    await connect(b.publicUrl, r, a);
    const conv = (await postConversation(b.publicUrl, a.token, { qualified_users: [q(r.id)] })).body.qualified_id.id;
    await putConversationName(b.publicUrl, a.token, { domain: 'example.com', id: conv }, { name: 'old' });
    const old = (await getLastNotification(b.publicUrl, r.token)).body;
    expect(markerOf(old)).toBe('old');
    // The TTL is a matter of time: nothing to await but the clock.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await getLastNotification(b.publicUrl, r.token)).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
    expect((await getNotifications(b.publicUrl, r.token, { since: old.id })).status).toBe(404);
    await putConversationName(b.publicUrl, a.token, { domain: 'example.com', id: conv }, { name: 'new' });
    const now = await getNotifications(b.publicUrl, r.token);
    expect(now.body.notifications.map(markerOf)).toEqual(['new']);
  });
});

describe('a restart right after a burst of sends', () => {
  it('loses nothing a 201 acknowledged: every recipient reads every message once, in order', async () => {
    let b = await startEditedBackend([]);
    const stateDir = b.stateDir;
    const users: TestUser[] = [];
    for (let i = 0; i < 8; i++) users.push(await createUser(b.publicUrl, b.internalUrl));
    const [sender, ...others] = users as [TestUser, ...TestUser[]];
    for (const u of others) await connect(b.publicUrl, sender, u);
    const clients = new Map<TestUser, string>();
    for (const u of users) clients.set(u, await addClient(b.publicUrl, u));
    const conv = (await postConversation(b.publicUrl, sender.token, { qualified_users: others.map((u) => q(u.id)) }))
      .body.qualified_id.id;
    const message = (i: number) =>
      otrMessage(
        clients.get(sender)!,
        others.map((u) => ({ user: u.id, client: clients.get(u)!, text: `burst${i}` })),
      );
    const count = 200;
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < count) {
          const i = next++;
          const r = await postOtr(b.publicUrl, sender.token, conv, message(i));
          expect(r.status, r.text).toBe(201);
        }
      }),
    );
    await b.stop();
    b = await startEditedBackend([], { stateDir, migrate: false });
    try {
      const orders: string[][] = [];
      for (const u of others) {
        const again = { ...u, ...(await login(b.publicUrl, u.email, u.password)) };
        const texts = (await pagedStream(b.publicUrl, again, `&client=${clients.get(u)}`, 1000))
          .filter((n) => n.payload[0].type === 'conversation.otr-message-add')
          .map((n) => Buffer.from(n.payload[0].data.text, 'base64').toString());
        expect(new Set(texts).size).toBe(count);
        expect(texts).toHaveLength(count);
        orders.push(texts);
      }
      for (const order of orders) expect(order).toEqual(orders[0]);
    } finally {
      await b.stop();
    }
  });
});
