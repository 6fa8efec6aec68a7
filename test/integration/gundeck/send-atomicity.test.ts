import { describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { groupWithClients } from '../../helpers/group.js';
import { otrMessage, postOtr } from '../../helpers/otr.js';
import { api, createUser, login, type TestUser } from '../../helpers/users.js';

// A conversation's message is recorded in the conversation object's outbox before any recipient's
// notification object is called, and sent again after a crash until every object stored it; the
// objects skip what they already have. So a send cut by a crash ends stored for every recipient
// or for none, never for some. Two users per object spread the recipients over six objects.

/** The message texts of a recipient's stream, in order. */
async function textsOf(base: string, u: TestUser, client: string): Promise<string[]> {
  const texts: string[] = [];
  let since = '';
  for (;;) {
    const r = await api(base, u.token).get(`/v8/notifications?size=500&client=${client}${since}`);
    expect(r.status, r.text).toBe(200);
    for (const n of r.body.notifications)
      if (n.payload[0].type === 'conversation.otr-message-add')
        texts.push(Buffer.from(n.payload[0].data.text, 'base64').toString());
    if (!r.body.has_more) return texts;
    since = `&since=${r.body.notifications.at(-1).id}`;
  }
}

describe('a crash in the middle of a burst of sends', () => {
  it('leaves each message stored for all of its recipients or for none, and the 201s for all', async () => {
    let b: TestBackend = await startEditedBackend([]);
    const stateDir = b.stateDir;
    await b.query('UPDATE notification_placement SET per_object = 2');
    const users: TestUser[] = [];
    for (let i = 0; i < 12; i++) users.push(await createUser(b.publicUrl, b.internalUrl));
    const [sender, ...others] = users as [TestUser, ...TestUser[]];
    const group = await groupWithClients(b.publicUrl, sender, others);
    const conv = group.conv;
    const clients = new Map<TestUser, string>([
      [sender, group.from],
      ...others.map((u, i) => [u, group.clients[i]!] as const),
    ]);
    const message = (text: string) =>
      otrMessage(
        clients.get(sender)!,
        others.map((u) => ({ user: u.id, client: clients.get(u)!, text })),
      );

    // Sixteen senders keep messages in flight; the backend is killed at the 60th 201.
    const acknowledged: string[] = [];
    let next = 0;
    let killed: Promise<void> | undefined;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (killed === undefined && next < 1000) {
          const text = `burst${next++}`;
          const r = await postOtr(b.publicUrl, sender.token, conv, message(text)).catch(() => undefined);
          if (r?.status !== 201 || killed !== undefined) continue;
          acknowledged.push(text);
          if (acknowledged.length === 60) killed = b.stop();
        }
      }),
    );
    await killed;

    b = await startEditedBackend([], { stateDir, migrate: false });
    try {
      const again = async (u: TestUser) => ({ ...u, ...(await login(b.publicUrl, u.email, u.password)) });
      const readers = await Promise.all(others.map(again));
      const streams = () => Promise.all(readers.map((u, i) => textsOf(b.publicUrl, u, clients.get(others[i]!)!)));
      // Untouched, the conversation's alarm sends again what the crash cut (a few seconds after
      // the restart); the streams are compared until they agree.
      const deadline = Date.now() + 20_000;
      for (;;) {
        const now = await streams();
        if (now.every((texts) => texts.join() === now[0]!.join()) || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // The next message comes after all of them.
      const s = await again(sender);
      expect((await postOtr(b.publicUrl, s.token, conv, message('after'))).status).toBe(201);
      const final = await streams();
      for (const texts of final) {
        expect(new Set(texts).size).toBe(texts.length);
        expect(texts.filter((t) => acknowledged.includes(t))).toHaveLength(acknowledged.length);
        expect(texts.at(-1)).toBe('after');
        expect(texts).toEqual(final[0]);
      }
    } finally {
      await b.stop();
    }
  });
});
