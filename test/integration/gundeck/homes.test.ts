import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { groupWithClients } from '../../helpers/group.js';
import { wireError } from '../../helpers/http.js';
import { otrMessage, postOtr } from '../../helpers/otr.js';
import { createUser, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { postOtrMessage } from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

// Each account gets a notification object when it is made, a fixed number of accounts per object
// (notification_placement.per_object), so the number of objects grows with the users and no
// stream ever moves. Here an object takes two users, so five users live in three objects.

describe('notification homes', () => {
  let b: TestBackend;
  let users: TestUser[];

  beforeAll(async () => {
    b = await startEditedBackend([]);
    await b.query('UPDATE notification_placement SET per_object = 2');
    users = [];
    for (let i = 0; i < 5; i++) users.push(await createUser(b.publicUrl, b.internalUrl));
  });
  afterAll(() => b?.stop());

  it('places accounts in order, a full object at a time', async () => {
    const rows = await b.query<{ user: string; home: number }>('SELECT user, home FROM notification_homes');
    const homeOf = new Map(rows.map((r) => [r.user, r.home]));
    expect(users.map((u) => homeOf.get(u.id))).toEqual([0, 0, 1, 1, 2]);
  });

  it('fans a message out over every object, live and stored, in the conversation order', async () => {
    const [sender, ...others] = users;
    const { conv, from, clients } = await groupWithClients(b.publicUrl, sender!, others);
    const sockets = await Promise.all(others.map((o) => openSocket(b.publicUrl, `/v8/await?access_token=${o.token}`)));

    for (const text of ['one', 'two', 'three']) {
      const body = otrMessage(
        from,
        others.map((o, i) => ({ user: o.id, client: clients[i]!, text })),
        { ignoreAll: {} },
      );
      expect((await postOtr(b.publicUrl, sender!.token, conv, body)).status).toBe(201);
    }
    const textOf = (n: any) => Buffer.from(n.payload[0].data.text, 'base64').toString();
    const isMessage = (n: any) => n.payload?.[0]?.type === 'conversation.otr-message-add';
    for (const [i, o] of others.entries()) {
      const live = [];
      for (let k = 0; k < 3; k++) live.push(await sockets[i]!.next(isMessage));
      expect(live.map(textOf)).toEqual(['one', 'two', 'three']);
      const stored = (await getNotifications(b.publicUrl, o.token, { size: 100 })).body.notifications.filter(isMessage);
      expect(stored.map((n: any) => ({ id: n.id, text: textOf(n) }))).toEqual(
        live.map((n: any) => ({ id: n.id, text: textOf(n) })),
      );
    }
    await Promise.all(sockets.map((s) => s.close()));
  });

  it('stores a message larger than a row for recipients who share an object, in parts', async () => {
    await b.query('UPDATE notification_placement SET per_object = 100');
    const group: TestUser[] = [];
    for (let i = 0; i < 4; i++) group.push(await createUser(b.publicUrl, b.internalUrl));
    const homes = await b.query<{ home: number }>(
      `SELECT DISTINCT home FROM notification_homes WHERE user IN (${group.map(() => '?').join()})`,
      ...group.map((u) => u.id),
    );
    expect(homes).toHaveLength(1);
    const [sender, ...others] = group;
    const { conv, from, clients } = await groupWithClients(b.publicUrl, sender!, others);
    // 3 × 800 kB of ciphertext: more than the 2 MB one SQLite row may hold.
    const texts = others.map((_, i) => String(i).repeat(800_000));
    const body = otrMessage(
      from,
      others.map((o, i) => ({ user: o.id, client: clients[i]!, text: texts[i]! })),
      { ignoreAll: {} },
    );
    const sent = await postOtr(b.publicUrl, sender!.token, conv, body);
    expect(sent.status, sent.text).toBe(201);
    for (const [i, o] of others.entries()) {
      const stored = (await getNotifications(b.publicUrl, o.token, { size: 100 })).body.notifications.filter(
        (n: any) => n.payload[0].type === 'conversation.otr-message-add',
      );
      expect(stored.map((n: any) => Buffer.from(n.payload[0].data.text, 'base64').toString())).toEqual([texts[i]]);
    }

    // One notification is one row: a ciphertext that could not be stored is refused for everyone.
    const tooLarge = others.map((o, i) => ({
      user: o.id,
      client: clients[i]!,
      text: i === 0 ? 'x'.repeat(2_500_000) : 'small',
    }));
    const refused = await postOtr(b.publicUrl, sender!.token, conv, otrMessage(from, tooLarge, { ignoreAll: {} }));
    expect(refused).toMatchObject({ status: 413, body: wireError(413, 'client-error') });
    const legacy = await postOtrMessage(
      b.publicUrl,
      sender!.token,
      conv,
      {
        sender: from,
        recipients: Object.fromEntries(
          tooLarge.map((r) => [r.user, { [r.client]: Buffer.from(r.text).toString('base64') }]),
        ),
      },
      { ignore_missing: true },
    );
    expect(legacy).toMatchObject({ status: 413, body: wireError(413, 'client-error') });
    for (const o of others) {
      const texts = (await getNotifications(b.publicUrl, o.token, { size: 100 })).body.notifications
        .filter((n: any) => n.payload[0].type === 'conversation.otr-message-add')
        .map((n: any) => Buffer.from(n.payload[0].data.text, 'base64').toString().slice(0, 5));
      expect(texts).not.toContain('small');
      expect(texts).not.toContain('xxxxx');
    }
  });
});
