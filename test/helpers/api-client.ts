import { APIClient } from '@wireapp/api-client';
import type { Cookie } from '@wireapp/api-client/lib/auth/Cookie.js';
import { CookieStore } from '@wireapp/api-client/lib/auth/CookieStore.js';
import { ClientClassification, ClientType } from '@wireapp/api-client/lib/client/index.js';
import type { Notification } from '@wireapp/api-client/lib/notification/index.js';
import { WebSocketClient } from '@wireapp/api-client/lib/tcp/index.js';
import { ProteusDevice } from './proteus-device.js';
import { activationCode, uniqueEmail } from './users.js';
import { postActivateSend } from './endpoints/brig.js';

/**
 * One user driven by the official client library. The library keeps the zuid cookie in a
 * process-wide store, so each user's cookie is put back before calls that use it.
 */
export class Account {
  readonly api: APIClient;
  cookie: Cookie | undefined;

  constructor(publicUrl: string) {
    this.api = new APIClient({ urls: { name: 'local', rest: publicUrl, ws: publicUrl.replace(/^http/, 'ws') } });
  }

  async as<T>(fn: () => Promise<T>): Promise<T> {
    if (this.cookie !== undefined) CookieStore.setCookie(this.cookie);
    const result = await fn();
    this.cookie = CookieStore.getCookie() ?? this.cookie;
    return result;
  }
}

/** An account registered through the library on v8, with a real Proteus device as its client. */
export class ProteusMember extends Account {
  device!: ProteusDevice;
  id!: string;
  client!: string;

  constructor(
    publicUrl: string,
    readonly domain: string,
  ) {
    super(publicUrl);
  }

  get qid() {
    return { id: this.id, domain: this.domain };
  }

  static async join(backend: { publicUrl: string; internalUrl: string }, domain: string, name: string) {
    const m = new ProteusMember(backend.publicUrl, domain);
    await m.api.useVersion(8, 8);
    const email = uniqueEmail('proteus-e2e');
    const password = 'secret-password';
    await postActivateSend(backend.publicUrl, { email });
    const email_code = await activationCode(backend.internalUrl, email);
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

  /** The first notification the websocket brings that `pick` finds something in. */
  arrival<T>(pick: (n: Notification) => T | undefined): Promise<T> {
    return new Promise<T>((resolve) =>
      this.api.transport.ws.on(WebSocketClient.TOPIC.ON_MESSAGE, (n: Notification) => {
        const found = pick(n);
        if (found !== undefined) resolve(found);
      }),
    );
  }

  /** Opens the library's websocket and waits until it is connected. */
  listen(): Promise<void> {
    return this.as(() => new Promise<void>((resolve) => void this.api.connect(async () => resolve())));
  }
}

/** The otr-message-add event of a notification, when it carries one. */
export const otrOf = (n: Notification) =>
  n.payload.find((e) => e.type === 'conversation.otr-message-add') as
    | { data: { sender: string; recipient: string; text: string } }
    | undefined;
