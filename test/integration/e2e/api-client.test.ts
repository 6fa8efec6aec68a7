import { ClientClassification, ClientType } from '@wireapp/api-client/lib/client/index.js';
import { ConnectionStatus } from '@wireapp/api-client/lib/connection/index.js';
import type { Notification } from '@wireapp/api-client/lib/notification/index.js';
import { WebSocketClient } from '@wireapp/api-client/lib/tcp/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Account } from '../../helpers/api-client.js';
import { sharedBackend } from '../../helpers/backend.js';
import { proteusKeys } from '../../helpers/prekeys.js';
import { activationCode, api, uniqueEmail } from '../../helpers/users.js';
import { postActivateSend } from '../../helpers/endpoints/brig.js';

const { publicUrl, internalUrl } = sharedBackend();
const password = 'secret-password';

async function verifiedEmail(): Promise<{ email: string; email_code: string }> {
  const email = uniqueEmail('e2e');
  expect((await postActivateSend(publicUrl, { email })).status).toBe(200);
  return { email, email_code: await activationCode(internalUrl, email) };
}

async function proteusClient() {
  return {
    class: ClientClassification.DESKTOP as const,
    type: ClientType.PERMANENT as const,
    cookie: 'e2e',
    label: 'e2e',
    ...(await proteusKeys(10)),
  };
}

describe('the official @wireapp/api-client against this backend', () => {
  const previousEnv = process.env.NODE_ENV;
  const alice = new Account(publicUrl);
  const bob = new Account(publicUrl);

  beforeAll(() => {
    // Outside tests the library gzips JSON bodies; let it, to go through that path too.
    process.env.NODE_ENV = 'production';
  });
  afterAll(() => {
    process.env.NODE_ENV = previousEnv;
    alice.api.disconnect();
    bob.api.disconnect();
  });

  it('registers, logs in, adds clients, connects users, delivers events and logs out', async () => {
    for (const account of [alice, bob]) {
      const features = await account.api.useVersion(0, 9);
      expect(features.version).toBe(8); // v9 is development, disabled by default
      expect(features.domain).toBe('example.com');
    }

    const a = await verifiedEmail();
    const b = await verifiedEmail();
    await alice.as(() => alice.api.register({ name: 'Alice', ...a, password } as never));
    await bob.as(() => bob.api.register({ name: 'Bob', ...b, password } as never));
    const ctxA = await alice.as(() => alice.api.login({ email: a.email, password, clientType: ClientType.PERMANENT }));
    const ctxB = await bob.as(() => bob.api.login({ email: b.email, password, clientType: ClientType.PERMANENT }));
    expect(ctxA.domain).toBe('example.com');

    for (const account of [alice, bob]) {
      const client = await account.as(async () => account.api.api.client.postClient(await proteusClient()));
      account.api.context!.clientId = client.id;
      expect((await account.as(() => account.api.api.client.getClients())).map((c) => c.id)).toEqual([client.id]);
    }
    const bundle = await alice.as(() => alice.api.api.user.getUserPreKeys({ id: ctxB.userId, domain: 'example.com' }));
    expect(bundle.clients.map((c) => c.client)).toEqual([bob.api.clientId]);

    const connectionEvent = new Promise<Notification>((resolve) =>
      bob.api.transport.ws.on(WebSocketClient.TOPIC.ON_MESSAGE, (n: Notification) => {
        if (n.payload.some((e) => e.type === 'user.connection')) resolve(n);
      }),
    );
    await bob.as(() => new Promise<void>((resolve) => void bob.api.connect(async () => resolve())));

    const request = await alice.as(() =>
      alice.api.api.connection.postConnection({ id: ctxB.userId, domain: 'example.com' }),
    );
    expect(request.status).toBe(ConnectionStatus.SENT);
    const pending = (await connectionEvent).payload[0] as {
      connection: { status: string; to: string };
      user: { name: string };
    };
    expect(pending.connection).toMatchObject({ status: 'pending', to: ctxA.userId });
    expect(pending.user.name).toBe('Alice');

    await bob.as(() =>
      bob.api.api.connection.putConnection(
        { id: ctxA.userId, domain: 'example.com' },
        { status: ConnectionStatus.ACCEPTED },
      ),
    );
    const { notifications } = await bob.as(() => bob.api.api.notification.getAllNotifications(bob.api.clientId));
    expect(notifications.some((n) => n.payload.some((e) => e.type === 'user.connection'))).toBe(true);
    const list = await alice.as(() => alice.api.api.connection.getConnectionList());
    expect(list.map((c) => c.status)).toEqual([ConnectionStatus.ACCEPTED]);

    const cookies = [alice.cookie!.zuid, bob.cookie!.zuid];
    await alice.as(() => alice.api.logout());
    await bob.as(() => bob.api.logout());
    for (const zuid of cookies)
      expect((await api(publicUrl).post('/access', undefined, { cookie: `zuid=${zuid}` })).status).toBe(403);
  }, 60_000);
});
