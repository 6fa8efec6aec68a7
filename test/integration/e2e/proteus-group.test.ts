import { APIClient } from '@wireapp/api-client';
import type { Cookie } from '@wireapp/api-client/lib/auth/Cookie.js';
import { CookieStore } from '@wireapp/api-client/lib/auth/CookieStore.js';
import { ClientClassification, ClientType } from '@wireapp/api-client/lib/client/index.js';
import { ConnectionStatus } from '@wireapp/api-client/lib/connection/index.js';
import type { Notification } from '@wireapp/api-client/lib/notification/index.js';
import { WebSocketClient } from '@wireapp/api-client/lib/tcp/index.js';
import { proteus } from '@wireapp/protocol-messaging/web/otr.js';
import Long from 'long';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { ProteusDevice } from '../../helpers/proteus-device.js';
import { activationCode, api, uniqueEmail } from '../../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();
const password = 'secret-password';
const domain = 'example.com';

/** One user on the official client library, with a real Proteus device registered as its client. */
class Member {
  readonly api = new APIClient({ urls: { name: 'local', rest: publicUrl, ws: publicUrl.replace(/^http/, 'ws') } });
  cookie: Cookie | undefined;
  device!: ProteusDevice;
  id!: string;
  client!: string;

  async as<T>(fn: () => Promise<T>): Promise<T> {
    if (this.cookie !== undefined) CookieStore.setCookie(this.cookie);
    const result = await fn();
    this.cookie = CookieStore.getCookie() ?? this.cookie;
    return result;
  }

  static async join(name: string): Promise<Member> {
    const m = new Member();
    await m.api.useVersion(8, 8);
    const email = uniqueEmail('proteus-e2e');
    await api(publicUrl).post('/v8/activate/send', { email });
    const email_code = await activationCode(internalUrl, email);
    await m.as(() => m.api.register({ name, email, password, email_code } as never));
    m.id = (await m.as(() => m.api.login({ email, password, clientType: ClientType.PERMANENT }))).userId;
    m.device = await ProteusDevice.create();
    const body = {
      class: ClientClassification.DESKTOP as const,
      type: ClientType.PERMANENT as const,
      cookie: 'e2e',
      ...m.device.registration,
    };
    m.client = (await m.as(() => m.api.api.client.postClient(body))).id;
    m.api.context!.clientId = m.client;
    return m;
  }
}

const qid = (m: Member) => ({ id: m.id, domain });
const otrOf = (n: Notification) =>
  n.payload.find((e) => e.type === 'conversation.otr-message-add') as
    | { data: { sender: string; recipient: string; text: string } }
    | undefined;

describe('Proteus group messaging with the official client library', () => {
  const members: Member[] = [];
  afterAll(() => {
    for (const m of members) m.api.disconnect();
  });

  it('A messages B and C: 412 names the missing clients, the encrypted send arrives and decrypts', async () => {
    const [a, b, c] = [await Member.join('A'), await Member.join('B'), await Member.join('C')];
    members.push(a, b, c);
    for (const other of [b, c]) {
      await a.as(() => a.api.api.connection.postConnection(qid(other)));
      await other.as(() => other.api.api.connection.putConnection(qid(a), { status: ConnectionStatus.ACCEPTED }));
    }
    const conv = await a.as(() =>
      a.api.api.conversation.postConversation({ name: 'E2E', qualified_users: [qid(b), qid(c)] } as never),
    );
    const convId = conv.qualified_id!.id;

    const received = (m: Member) =>
      new Promise<Notification>((resolve) =>
        m.api.transport.ws.on(WebSocketClient.TOPIC.ON_MESSAGE, (n: Notification) => otrOf(n) && resolve(n)),
      );
    const live = [received(b), received(c)];
    for (const m of [b, c]) await m.as(() => new Promise<void>((resolve) => void m.api.connect(async () => resolve())));

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
      const event = otrOf(await arrival)!;
      expect(event.data).toMatchObject({ sender: a.client, recipient: m.client });
      expect(await m.device.decrypt(event.data.text)).toBe(`hello ${m.id}`);
      const { notifications } = await m.as(() => m.api.api.notification.getAllNotifications(m.client));
      const stored = notifications.map(otrOf).find((e) => e !== undefined)!;
      expect(await m.device.decrypt(stored.data.text)).toBe(`hello ${m.id}`);
    }
  }, 60_000);
});
