/**
 * One person using the web app in this browser profile: the official @wireapp/api-client for
 * every request and the /await socket (its own login, cookies `withCredentials`, token refresh,
 * websocket with its ping), core-crypto for Proteus and MLS, the messages as protobuf
 * GenericMessages. The test calls these methods through `window.wire`.
 */
import { APIClient } from '@wireapp/api-client';
import type { QualifiedId } from '@wireapp/api-client/lib/user/index.js';
import type { Notification } from '@wireapp/api-client/lib/notification/index.js';
import { WebSocketClient } from '@wireapp/api-client/lib/tcp/index.js';
import { GenericMessage } from '@wireapp/protocol-messaging';
import Long from 'long';
import { base64, concat, DeviceCrypto, fromBase64, type PreKey, sessionId, signatureOf } from './crypto.js';
import { type ConsumedNotification, EventsSocket } from './events-socket.js';
import { REST_URL, WEBSOCKET_URL } from './hosts.js';

type WireEvent = { type: string; [key: string]: unknown };

/** An event as the page handled it: from which socket (or the notification stream), in order. */
export interface LoggedEvent {
  source: 'await' | 'events' | 'notifications';
  notification: string;
  type: string;
  event: WireEvent;
}

/** A message the page decrypted. */
export interface ReceivedMessage {
  via: 'proteus' | 'mls';
  conversation: QualifiedId;
  from: QualifiedId;
  messageId: string;
  text?: string;
  asset?: { mimeType: string; size: number; width?: number; height?: number };
}

interface RemoteAsset {
  assetId: string;
  assetToken?: string;
  assetDomain: string;
  otrKey: Uint8Array;
  sha256: Uint8Array;
  mimeType: string;
}

/** What the page hands the test about a downloaded image. */
export interface ShownImage {
  mimeType: string;
  width: number;
  height: number;
  sha256: string;
}

const hex = (bytes: ArrayBuffer | Uint8Array) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
const uuidBytes = (id: string) => Uint8Array.from(id.replace(/-/g, '').match(/../g)!, (h) => Number.parseInt(h, 16));
/** A copy on its own ArrayBuffer, as WebCrypto takes it. */
const own = (bytes: Uint8Array) => new Uint8Array(bytes);
const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', own(bytes)));

/**
 * @wireapp/api-client 27.0.0 sends every request that carries cookies unversioned; the web app's
 * current api-client (27.9x) versions them all but `/access` (`/v7/register`, `/v7/login`,
 * `/v7/cookies/remove`). This page sends what the web app sends.
 */
function versionCookieRequestsAsTheWebApp(api: APIClient): void {
  type Config = { url?: string; withCredentials?: boolean };
  const http = api.transport.http as unknown as {
    versionPrefix: string;
    _sendRequest: (config: Config, ...rest: unknown[]) => Promise<unknown>;
  };
  const send = http._sendRequest.bind(http);
  http._sendRequest = (config, ...rest) => {
    const url = config.url ?? '';
    const versioned = config.withCredentials === true && !url.startsWith('/access');
    return send(versioned ? { ...config, url: `${http.versionPrefix}${url}` } : config, ...rest);
  };
}

export class Person {
  readonly api: APIClient;
  /** Every event handled, in the order handled. */
  readonly log: LoggedEvent[] = [];
  readonly received: ReceivedMessage[] = [];
  self: QualifiedId | undefined;
  client: string | undefined;
  /** The /events socket (v8 clients with consumable notifications). */
  eventsSocket: EventsSocket | undefined;
  private device: DeviceCrypto | undefined;
  private suite = 1;
  private readonly groups = new Map<string, Uint8Array>();
  private readonly assets = new Map<string, RemoteAsset>();
  private readonly seen = new Set<string>();
  private lastNotification: string | undefined;
  /** Events are handled one after the other, as they came. */
  private queue: Promise<void> = Promise.resolve();
  private changed: Array<() => void> = [];

  private constructor(readonly version: number) {
    this.api = new APIClient({ urls: { name: 'example.com', rest: REST_URL, ws: WEBSOCKET_URL } });
    versionCookieRequestsAsTheWebApp(this.api);
  }

  /** The app starts: it asks the backend which API versions it speaks and uses `version`. */
  static async start(version: number): Promise<Person> {
    const p = new Person(version);
    const features = await p.api.useVersion(version, version);
    if (features.version !== version) throw new Error(`backend chose v${features.version}`);
    return p;
  }

  private get deviceCrypto(): DeviceCrypto {
    if (this.device === undefined) throw new Error('no client registered in this profile');
    return this.device;
  }

  private get me(): QualifiedId {
    if (this.self === undefined) throw new Error('not signed in');
    return this.self;
  }

  private get myClient(): string {
    if (this.client === undefined) throw new Error('no client registered in this profile');
    return this.client;
  }

  // --- account -------------------------------------------------------------------------------

  /** The sign-up form's "send code" step: `POST /activate/send`. */
  async requestCode(email: string): Promise<void> {
    await this.api.api.user.postActivationCode({ email, locale: 'en-US' } as never);
  }

  /** The sign-up form sent, with the mailed code: the web app's exact body, nulls included. */
  async signUp(form: { name: string; email: string; password: string; code: string }): Promise<QualifiedId> {
    const body = {
      accent_id: 1,
      assets: null,
      email: form.email,
      email_code: form.code,
      invitation_code: null,
      label: null,
      locale: 'en-US',
      name: form.name,
      password: form.password,
      team: null,
      termsAccepted: true,
    };
    const context = await this.api.register(body as never);
    this.self = { id: context.userId, domain: context.domain ?? '' };
    return this.self;
  }

  /** The marketing consent dialog, answered: `PUT /self/consent`, then `GET /self/consent`. */
  async consent(): Promise<unknown> {
    await this.api.api.self.putConsent({ type: 2, value: 1, source: 'Webapp 2026.11' } as never);
    return this.api.api.self.getConsents();
  }

  /**
   * The username step: the suggestion checked, then taken (`PUT /self/handle`). The check is
   * `POST /handles` from v7 on (wire-server's check-user-handles), where the web app's api-client
   * (27.9x) sends it; 27.0.0 still posts to v6's `/users/handles`.
   */
  async setHandle(handle: string): Promise<string | undefined> {
    const check = { method: 'post', url: '/handles', data: { handles: [handle], return: 1 } };
    const free = (await this.api.transport.http.sendJSON<string[]>(check)).data;
    if (!free.includes(handle)) throw new Error(`handle ${handle} is taken`);
    await this.api.api.self.putHandle({ handle });
    return (await this.api.api.self.getSelf()).handle;
  }

  async logout(): Promise<void> {
    await this.api.logout();
  }

  /** The login form: `POST /login?persist=true` (the cookie lands in this profile's jar). */
  async login(email: string, password: string): Promise<QualifiedId> {
    const context = await this.api.login({ email, password, clientType: 'permanent' } as never);
    this.self = { id: context.userId, domain: context.domain ?? '' };
    return this.self;
  }

  /** A new access token through the cookie (`POST /access`, with the old token), as on expiry. */
  async refresh(): Promise<{ expires_in: number; same_user: boolean }> {
    const token = await this.api.transport.http.refreshAccessToken();
    return { expires_in: token.expires_in, same_user: token.user === this.me.id };
  }

  // --- client ----------------------------------------------------------------------------------

  /**
   * Registers this profile's device as a permanent client: Proteus prekeys made by core-crypto,
   * the session bound to the client (`POST /access?client_id=`), then MLS: the cipher suite from
   * `/feature-configs`, the signature key (`PUT /clients/{id}`) and key packages.
   */
  async registerClient(password: string, consumable: boolean): Promise<{ client: string; suite: number }> {
    this.device = await DeviceCrypto.open(`wire@${this.me.id}`);
    const keys = await this.device.prekeys(10);
    const capabilities = ['legalhold-implicit-consent', ...(consumable ? ['consumable-notifications'] : [])];
    const registered = await this.api.api.client.postClient({
      class: 'desktop',
      cookie: `webapp@${this.me.id}@permanent@${Date.now()}`,
      label: 'Chrome',
      model: 'Chrome',
      type: 'permanent',
      password,
      capabilities,
      ...keys,
    } as never);
    this.client = registered.id;
    this.api.context!.clientId = registered.id;
    await this.api.transport.http.associateClientWithSession(registered.id);

    const features = (await this.api.api.teams.feature.getAllFeatures()) as {
      mls?: { config?: { defaultCipherSuite?: number } };
    };
    this.suite = features.mls?.config?.defaultCipherSuite ?? 1;
    await this.device.mlsInit(this.me, registered.id, this.suite, async (body) => {
      await this.api.api.conversation.postMlsCommitBundle(body);
    });
    const signature = signatureOf(this.suite);
    await this.api.api.client.putClient(registered.id, {
      mls_public_keys: { [signature.name]: base64(await this.device.signatureKey()) },
    } as never);
    const keyPackages = await this.device.keyPackages(3);
    await this.api.api.client.uploadMLSKeyPackages(registered.id, keyPackages.map(base64));
    return { client: registered.id, suite: this.suite };
  }

  // --- notifications ---------------------------------------------------------------------------

  /**
   * Opens the notification socket: the SDK's `/await` (its reconnecting websocket, with its
   * ping), the notification stream read first; or, for a consumable-notifications client,
   * `/v8/events`.
   */
  async listen(consumable: boolean): Promise<void> {
    if (consumable) {
      await new Promise<void>((resolve, reject) => {
        this.eventsSocket = new EventsSocket({
          url: () => {
            const token = this.api.transport.http.accessTokenStore.accessToken?.access_token ?? '';
            return `${WEBSOCKET_URL}/v${this.version}/events?access_token=${token}&client=${this.myClient}`;
          },
          onNotification: (n) => this.take(n, 'events'),
          onSynchronized: resolve,
        });
        this.eventsSocket.connect().catch(reject);
      });
      return;
    }
    const ws = this.api.transport.ws;
    ws.on(WebSocketClient.TOPIC.ON_MESSAGE, (n: Notification) => void this.take(n, 'await'));
    await new Promise<void>((resolve) => {
      this.api.connect(async () => {
        // As the web app does on every (re)connect: what came meanwhile, from the stream.
        ws.lock();
        try {
          const { notifications } = await this.api.api.notification.getAllNotifications(
            this.myClient,
            this.lastNotification,
          );
          for (const n of notifications) void this.take(n, 'notifications');
        } finally {
          ws.unlock();
        }
        resolve();
      });
    });
  }

  private take(n: Notification | ConsumedNotification, source: LoggedEvent['source']): Promise<void> {
    if (this.seen.has(n.id)) return Promise.resolve();
    this.seen.add(n.id);
    if (source !== 'events') this.lastNotification = n.id;
    this.queue = this.queue.then(async () => {
      for (const event of n.payload as unknown as WireEvent[]) {
        this.log.push({ source, notification: n.id, type: event.type, event });
        try {
          await this.react(event);
        } catch (err) {
          console.error(`page: handling ${event.type} failed:`, err);
        }
      }
      this.notify();
    });
    return this.queue;
  }

  private notify(): void {
    const waiting = this.changed;
    this.changed = [];
    for (const w of waiting) w();
  }

  /** Resolves with the first non-undefined `check()`, checked after each handled notification. */
  until<T>(check: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`page: no ${what} within ${timeoutMs} ms`)), timeoutMs);
      const attempt = () => {
        const found = check();
        if (found === undefined) this.changed.push(attempt);
        else {
          clearTimeout(timer);
          resolve(found);
        }
      };
      attempt();
    });
  }

  private async react(event: WireEvent): Promise<void> {
    const conversation = event.qualified_conversation as QualifiedId;
    const from = event.qualified_from as QualifiedId;
    switch (event.type) {
      case 'conversation.otr-message-add': {
        const data = event.data as { sender: string; recipient: string; text: string };
        if (data.recipient !== this.client) return;
        const plain = await this.deviceCrypto.proteusDecrypt(sessionId(from, data.sender), fromBase64(data.text));
        this.receive('proteus', conversation, from, plain);
        return;
      }
      case 'conversation.mls-welcome': {
        const groupId = await this.deviceCrypto.joinByWelcome(fromBase64(event.data as string));
        this.groups.set(conversation.id, groupId);
        return;
      }
      case 'conversation.mls-message-add': {
        const groupId = this.groups.get(conversation.id);
        if (groupId === undefined) return;
        const decrypted = await this.deviceCrypto.mlsDecrypt(groupId, fromBase64(event.data as string));
        if (decrypted.kind === 'application') this.receive('mls', conversation, from, decrypted.plaintext);
        return;
      }
    }
  }

  private receive(via: ReceivedMessage['via'], conversation: QualifiedId, from: QualifiedId, plain: Uint8Array) {
    const m = GenericMessage.decode(plain);
    const entry: ReceivedMessage = { via, conversation, from, messageId: m.messageId };
    if (m.text) entry.text = m.text.content;
    const uploaded = m.asset?.uploaded;
    const original = m.asset?.original;
    if (uploaded?.assetId && uploaded.assetDomain && original) {
      entry.asset = {
        mimeType: original.mimeType,
        size: Number(original.size),
        width: original.image?.width,
        height: original.image?.height,
      };
      this.assets.set(m.messageId, {
        assetId: uploaded.assetId,
        assetToken: uploaded.assetToken ?? undefined,
        assetDomain: uploaded.assetDomain,
        otrKey: uploaded.otrKey,
        sha256: uploaded.sha256,
        mimeType: original.mimeType,
      });
    }
    this.received.push(entry);
  }

  /** The client's notification stream as the backend keeps it (`GET /notifications?client=`), in order. */
  async stream(): Promise<LoggedEvent[]> {
    const { notifications } = await this.api.api.notification.getAllNotifications(this.myClient);
    return notifications.flatMap((n) =>
      (n.payload as unknown as WireEvent[]).map((event) => ({
        source: 'notifications' as const,
        notification: n.id,
        type: event.type,
        event,
      })),
    );
  }

  /** How often the SDK's websocket sends its `ping` (ms). */
  pingInterval(): number {
    return (this.api.transport.ws as unknown as { socket: { PING_INTERVAL: number } }).socket.PING_INTERVAL;
  }

  /** The /events socket's life: how often it opened, how it closed. */
  eventsSocketState(): { opened: number; open: boolean; closes: Array<{ code: number; reason: string }> } {
    const s = this.eventsSocket;
    return { opened: s?.opened ?? 0, open: s?.open ?? false, closes: s?.closes ?? [] };
  }

  /** The events handled so far (of these types, when given). */
  events(types?: string[]): LoggedEvent[] {
    return this.log.filter((e) => types === undefined || types.includes(e.type));
  }

  /** Waits until a `user.connection` event with this status was handled. */
  connectionEvent(status: string): Promise<LoggedEvent> {
    return this.until(
      () =>
        this.log.find(
          (e) => e.type === 'user.connection' && (e.event.connection as { status?: string })?.status === status,
        ),
      `user.connection ${status}`,
    );
  }

  /** Waits for a decrypted message matching `want`. */
  message(want: Partial<Pick<ReceivedMessage, 'via' | 'text' | 'messageId'>> & { conversation?: string }) {
    return this.until(
      () =>
        this.received.find(
          (m) =>
            (want.via === undefined || m.via === want.via) &&
            (want.text === undefined || m.text === want.text) &&
            (want.messageId === undefined || m.messageId === want.messageId) &&
            (want.conversation === undefined || m.conversation.id === want.conversation),
        ),
      `message ${JSON.stringify(want)}`,
    );
  }

  // --- connections -----------------------------------------------------------------------------

  connect(to: QualifiedId): Promise<unknown> {
    return this.api.api.connection.postConnection(to);
  }

  accept(from: QualifiedId): Promise<unknown> {
    return this.api.api.connection.putConnection(from, { status: 'accepted' } as never);
  }

  async conversation(id: QualifiedId): Promise<{ type: number; protocol?: string; others: string[] }> {
    const c = (await this.api.api.conversation.getConversation(id)) as unknown as {
      type: number;
      protocol?: string;
      members: { others: Array<{ qualified_id: QualifiedId }> };
    };
    return { type: c.type, protocol: c.protocol, others: c.members.others.map((o) => o.qualified_id.id) };
  }

  // --- Proteus messages ------------------------------------------------------------------------

  /**
   * Sends a GenericMessage to every other client of the conversation's members (sessions from
   * claimed prekeys where there are none), as `QualifiedNewOtrMessage` protobuf.
   */
  private async sendProteus(conversation: QualifiedId, message: GenericMessage): Promise<void> {
    const plain = GenericMessage.encode(message).finish();
    const conv = (await this.api.api.conversation.getConversation(conversation)) as unknown as {
      members: { others: Array<{ qualified_id: QualifiedId }> };
    };
    const users = [this.me, ...conv.members.others.map((o) => o.qualified_id)];
    const listed = (await this.api.api.user.postListClients({ qualified_users: users })) as unknown as {
      qualified_user_map: Record<string, Record<string, Array<{ id: string }>>>;
    };
    const targets: Array<{ user: QualifiedId; client: string; session: string }> = [];
    for (const [domain, byUser] of Object.entries(listed.qualified_user_map))
      for (const [id, clients] of Object.entries(byUser))
        for (const { id: client } of clients) {
          if (id === this.me.id && client === this.client) continue;
          targets.push({ user: { id, domain }, client, session: sessionId({ id, domain }, client) });
        }

    const prekeys: Record<string, PreKey> = {};
    const wanted: Record<string, Record<string, string[]>> = {};
    for (const t of targets)
      if (!(await this.deviceCrypto.hasSession(t.session))) {
        const byUser = (wanted[t.user.domain] ??= {});
        (byUser[t.user.id] ??= []).push(t.client);
      }
    if (Object.keys(wanted).length > 0) {
      const bundles = await this.api.api.user.postMultiPreKeyBundles(wanted);
      for (const t of targets) {
        const prekey = bundles.qualified_user_client_prekeys[t.user.domain]?.[t.user.id]?.[t.client];
        if (prekey) prekeys[t.session] = prekey as PreKey;
      }
    }
    const encrypted = await this.deviceCrypto.proteusEncrypt(
      plain,
      targets.map((t) => t.session),
      prekeys,
    );

    const byDomain = new Map<string, Map<string, Array<{ client: { client: Long }; text: Uint8Array }>>>();
    for (const t of targets) {
      const users = byDomain.get(t.user.domain) ?? new Map();
      byDomain.set(t.user.domain, users);
      const clients = users.get(t.user.id) ?? [];
      users.set(t.user.id, clients);
      clients.push({ client: { client: Long.fromString(t.client, true, 16) }, text: encrypted.get(t.session)! });
    }
    const otr = {
      sender: { client: Long.fromString(this.myClient, true, 16) },
      recipients: [...byDomain].map(([domain, users]) => ({
        domain,
        entries: [...users].map(([id, clients]) => ({ user: { uuid: uuidBytes(id) }, clients })),
      })),
      reportAll: {},
    };
    await this.api.api.conversation.postOTRMessage(conversation.id, conversation.domain, otr as never);
  }

  async sendText(conversation: QualifiedId, text: string): Promise<string> {
    const messageId = crypto.randomUUID();
    await this.sendProteus(conversation, GenericMessage.create({ messageId, text: { content: text } }));
    return messageId;
  }

  // --- assets ----------------------------------------------------------------------------------

  /**
   * Draws a PNG, encrypts it as the web app does (AES-256-CBC, IV first, SHA-256 of the
   * ciphertext), uploads it (`POST /assets`, multipart) and sends the asset message over Proteus.
   */
  async sendImage(conversation: QualifiedId): Promise<{ messageId: string; sha256: string; size: number }> {
    const [width, height] = [64, 48];
    const canvas = new OffscreenCanvas(width, height);
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#0667c8';
    g.fillRect(0, 0, width, height);
    g.fillStyle = '#ffffff';
    g.fillRect(8, 8, 24, 16);
    const png = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());

    const otrKey = crypto.getRandomValues(new Uint8Array(32));
    const iv = crypto.getRandomValues(new Uint8Array(16));
    const key = await crypto.subtle.importKey('raw', otrKey, 'AES-CBC', false, ['encrypt']);
    const cipher = concat(iv, new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CBC', iv }, key, png)));
    const uploaded = (await this.api.api.asset.postAsset(cipher, { public: false, retention: 'expiring' } as never)
      .response) as { key: string; token?: string; domain: string };

    const messageId = crypto.randomUUID();
    await this.sendProteus(
      conversation,
      GenericMessage.create({
        messageId,
        asset: {
          original: { mimeType: 'image/png', size: png.length, image: { width, height } },
          uploaded: {
            otrKey,
            sha256: await sha256(cipher),
            assetId: uploaded.key,
            assetToken: uploaded.token,
            assetDomain: uploaded.domain,
          },
        },
      }),
    );
    return { messageId, sha256: hex(await sha256(png)), size: png.length };
  }

  /**
   * Opens a received image: downloads it (`GET /assets/{domain}/{key}`, redirected to the object
   * store), checks its SHA-256, decrypts it and shows it in an `<img>` from a `blob:` URL.
   */
  async showImage(messageId: string): Promise<ShownImage> {
    const asset = this.assets.get(messageId);
    if (asset === undefined) throw new Error(`no asset message ${messageId}`);
    const { buffer } = await this.api.api.asset.getAssetV4(asset.assetId, asset.assetDomain, asset.assetToken).response;
    const cipher = new Uint8Array(buffer);
    if (hex(await sha256(cipher)) !== hex(asset.sha256)) throw new Error('the downloaded asset is not the one sent');
    const key = await crypto.subtle.importKey('raw', own(asset.otrKey), 'AES-CBC', false, ['decrypt']);
    const plain = new Uint8Array(
      await crypto.subtle.decrypt({ name: 'AES-CBC', iv: cipher.subarray(0, 16) }, key, cipher.subarray(16)),
    );
    const img = document.createElement('img');
    img.src = URL.createObjectURL(new Blob([plain], { type: asset.mimeType }));
    await img.decode();
    document.body.append(img);
    return {
      mimeType: asset.mimeType,
      width: img.naturalWidth,
      height: img.naturalHeight,
      sha256: hex(await sha256(plain)),
    };
  }

  // --- MLS -------------------------------------------------------------------------------------

  /**
   * A new MLS group conversation: created empty (`POST /conversations`, protocol mls), the group
   * made with the backend's removal key as external sender, then one commit adding every client
   * of `member` from claimed key packages (its Welcome goes out with the commit bundle).
   */
  async createMlsGroup(name: string, member: QualifiedId): Promise<QualifiedId> {
    const conv = (await this.api.api.conversation.postConversation({
      name,
      protocol: 'mls',
      qualified_users: [],
    } as never)) as unknown as { qualified_id: QualifiedId; group_id: string };
    const groupId = fromBase64(conv.group_id);
    const signature = signatureOf(this.suite);
    const keys = (await this.api.api.client.getPublicKeys()) as unknown as { removal: Record<string, string> };
    const removal = keys.removal[signature.name];
    if (removal === undefined) throw new Error(`the backend has no ${signature.name} removal key`);
    await this.deviceCrypto.createGroup(groupId, fromBase64(removal), signature.scheme);
    this.groups.set(conv.qualified_id.id, groupId);
    const claimed = (await this.api.api.client.claimMLSKeyPackages(
      member.id,
      member.domain,
      `0x${this.suite.toString(16).padStart(4, '0')}`,
    )) as unknown as { key_packages: Array<{ key_package: string }> };
    await this.deviceCrypto.addToGroup(
      groupId,
      claimed.key_packages.map((k) => fromBase64(k.key_package)),
    );
    return conv.qualified_id;
  }

  /** Waits until this client joined the group of a conversation (by its Welcome). */
  joined(conversation: QualifiedId): Promise<true> {
    return this.until(() => (this.groups.has(conversation.id) ? true : undefined), `welcome to ${conversation.id}`);
  }

  async sendMls(conversation: QualifiedId, text: string): Promise<string> {
    const groupId = this.groups.get(conversation.id);
    if (groupId === undefined) throw new Error(`not in the group of ${conversation.id}`);
    const messageId = crypto.randomUUID();
    const plain = GenericMessage.encode(GenericMessage.create({ messageId, text: { content: text } })).finish();
    await this.api.api.conversation.postMlsMessage(await this.deviceCrypto.mlsEncrypt(groupId, plain));
    return messageId;
  }
}
