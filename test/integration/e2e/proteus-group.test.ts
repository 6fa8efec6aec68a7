import { ConnectionStatus } from '@wireapp/api-client/lib/connection/index.js';
import { proteus } from '@wireapp/protocol-messaging/web/otr.js';
import Long from 'long';
import { afterAll, describe, expect, it } from 'vitest';
import { otrOf, ProteusMember as Member } from '../../helpers/api-client.js';
import { sharedBackend } from '../../helpers/backend.js';

const backend = sharedBackend();
const domain = 'example.com';
const qid = (m: Member) => m.qid;

describe('Proteus group messaging with the official client library', () => {
  const members: Member[] = [];
  afterAll(() => {
    for (const m of members) m.api.disconnect();
  });

  it('A messages B and C: 412 names the missing clients, the encrypted send arrives and decrypts', async () => {
    const [a, b, c] = [
      await Member.join(backend, domain, 'A'),
      await Member.join(backend, domain, 'B'),
      await Member.join(backend, domain, 'C'),
    ];
    members.push(a, b, c);
    for (const other of [b, c]) {
      await a.as(() => a.api.api.connection.postConnection(qid(other)));
      await other.as(() => other.api.api.connection.putConnection(qid(a), { status: ConnectionStatus.ACCEPTED }));
    }
    const conv = await a.as(() =>
      a.api.api.conversation.postConversation({ name: 'E2E', qualified_users: [qid(b), qid(c)] } as never),
    );
    const convId = conv.qualified_id!.id;

    const live = [b.arrival(otrOf), c.arrival(otrOf)];
    for (const m of [b, c]) await m.listen();

    const sender = { client: Long.fromString(a.client, true, 16) };
    const empty = proteus.QualifiedNewOtrMessage.create({ sender, recipients: [], reportAll: {} });
    const refused = await a.as(() => a.api.api.conversation.postOTRMessage(convId, domain, empty)).catch((e) => e);
    expect(refused.response.status).toBe(412);
    expect(refused.response.data.missing).toEqual({ [domain]: { [b.id]: [b.client], [c.id]: [c.client] } });

    const bundles = await a.as(() =>
      a.api.api.user.postMultiPreKeyBundles({ [domain]: { [b.id]: [b.client], [c.id]: [c.client] } }),
    );
    const prekeyOf = (m: Member) => (bundles as any).qualified_user_client_prekeys[domain][m.id][m.client];
    const entry = (m: Member) => ({
      user: { uuid: Buffer.from(m.id.replace(/-/g, ''), 'hex') },
      clients: [
        {
          client: { client: Long.fromString(m.client, true, 16) },
          text: a.device.encryptFor(prekeyOf(m), `hello ${m.id}`),
        },
      ],
    });
    const message = proteus.QualifiedNewOtrMessage.create({
      sender,
      recipients: [{ domain, entries: [entry(b), entry(c)] }],
      reportAll: {},
    });
    const status = await a.as(() => a.api.api.conversation.postOTRMessage(convId, domain, message));
    expect(status.missing).toEqual({});

    for (const [m, arrival] of [
      [b, live[0]!],
      [c, live[1]!],
    ] as const) {
      const event = await arrival;
      expect(event.data).toMatchObject({ sender: a.client, recipient: m.client });
      expect(await m.device.decrypt(event.data.text)).toBe(`hello ${m.id}`);
      const { notifications } = await m.as(() => m.api.api.notification.getAllNotifications(m.client));
      const stored = notifications.map(otrOf).find((e) => e !== undefined)!;
      expect(await m.device.decrypt(stored.data.text)).toBe(`hello ${m.id}`);
    }
  }, 60_000);
});
