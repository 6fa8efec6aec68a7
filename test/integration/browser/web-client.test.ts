import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { NpmStart } from '../../../tools/lib/npm-start.js';
import { APP_ORIGIN, HOSTS } from '../../browser-page/hosts.js';
import type { LoggedEvent, Person } from '../../browser-page/person.js';
import { launchChromium } from '../../helpers/browser/chromium.js';
import { bundlePage } from '../../helpers/browser/page-bundle.js';
import { type PageServer, servePage } from '../../helpers/browser/page-server.js';
import {
  type BackendAnswer,
  type PageWatch,
  problemsOf,
  socketsSettle,
  type SocketRecord,
  watchPage,
} from '../../helpers/browser/page-watch.js';
import { npmStartOverTls } from '../../helpers/npm-start-tls.js';

/**
 * Issue 40, "A real browser in CI": the web app's SDK bundled into a page of our own, served at
 * https://webapp.example.com, driving two people in Chromium through `npm start` (the shipped
 * config/, over TLS) with nothing rewritten on the way: what a browser sends, the backend gets;
 * what it answers, the browser enforces (cookies, CORS, the page's CSP).
 */

const DOMAIN = 'example.com';
const PASSWORD = 'secret-password-1';

type Qid = { id: string; domain: string };
type Methods = { [K in keyof Person]: Person[K] extends (...args: never[]) => unknown ? K : never }[keyof Person];

/** One browser profile (its own cookie jar) with the page open. */
interface Profile {
  name: string;
  context: BrowserContext;
  page: Page;
  watch: PageWatch;
}

/** Calls a method of the person of a profile's page (arguments and result as JSON). */
function call<K extends Methods>(
  p: Profile,
  method: K,
  ...args: Parameters<Person[K]>
): Promise<Awaited<ReturnType<Person[K]>>> {
  return p.page.evaluate(
    ([m, a]) => (window.wire.person as unknown as Record<string, (...x: unknown[]) => unknown>)[m]!(...a),
    [method, args] as [string, unknown[]],
  ) as Promise<Awaited<ReturnType<Person[K]>>>;
}

describe('the web app’s SDK in Chromium, against `npm start` over TLS', () => {
  let run: NpmStart;
  let server: PageServer;
  let browser: Browser;
  let trusting: Agent;
  let mailbox: (email: string) => Promise<string>;
  const profiles: Profile[] = [];

  beforeAll(async () => {
    const root = mkdtempSync(join(inject('tmpRoot'), 'web-client-'));
    const started = await npmStartOverTls(root, [HOSTS.app, HOSTS.rest, HOSTS.websocket, 'localhost']);
    const { cert, port } = started;
    run = started.run;
    const pageDir = join(root, 'page');
    await bundlePage(pageDir);
    server = await servePage(pageDir, cert);
    browser = await launchChromium({
      spkiHash: cert.spkiHash,
      hosts: { [HOSTS.app]: server.port, [HOSTS.rest]: port, [HOSTS.websocket]: port },
    });
    await run.ready;
    // The local outbox, read as a person reads their mail.
    trusting = new Agent({ connect: { ca: cert.pem } });
    mailbox = async (email) => {
      const r = await fetch(`https://127.0.0.1:${port}/mailbox?to=${encodeURIComponent(email)}`, {
        headers: { authorization: `Basic ${btoa('mail:local-mailbox')}` },
        dispatcher: trusting,
      });
      expect(r.status).toBe(200);
      const { messages } = (await r.json()) as { messages: Array<{ text: string }> };
      const code = /verification code is (\w+)\./.exec(messages[0]?.text ?? '')?.[1];
      expect(code, JSON.stringify(messages)).toBeDefined();
      return code!;
    };
  }, 180_000);

  afterAll(async () => {
    await trusting?.close();
    await browser?.close();
    await server?.close();
    if (run !== undefined && run.child.exitCode === null) process.kill(-run.child.pid!, 'SIGKILL');
  });

  /** A new browser profile with the page loaded and the app started on `version`. */
  async function openProfile(name: string, version: number): Promise<Profile> {
    const context = await browser.newContext();
    // The SDK's loggers (logdown) write to the console only when asked to, as in the web app's dev builds.
    await context.addInitScript(() => localStorage.setItem('debug', '@wireapp/*'));
    const page = await context.newPage();
    const profile = { name, context, page, watch: watchPage(page, name) };
    profiles.push(profile);
    await page.goto(APP_ORIGIN);
    await page.waitForFunction(() => window.wire !== undefined);
    await page.evaluate((v) => window.wire.start(v), version);
    return profile;
  }

  /** The zuid cookie in a profile's jar, as the browser keeps it. */
  async function zuidOf(p: Profile) {
    return (await p.context.cookies()).find((c) => c.name === 'zuid');
  }

  interface Someone {
    name: string;
    version: number;
    /** Whether the client consumes notifications (`/v8/events`) rather than `/await`. */
    consumable: boolean;
    email: string;
    handle: string;
    self: Qid;
    device: Profile;
  }
  const alice = { name: 'Alice', version: 7, consumable: false } as Someone;
  const bob = { name: 'Bob', version: 8, consumable: true } as Someone;
  const tag = crypto.randomUUID().slice(0, 8);

  it('signs up as the web app does: its body (nulls included) with the mailed code, consent, a handle', async () => {
    await Promise.all(
      [alice, bob].map(async (s) => {
        s.email = `${s.name.toLowerCase()}-${tag}@example.com`;
        s.handle = `${s.name.toLowerCase()}${tag}`;
        const signUp = await openProfile(`${s.name} (sign-up profile)`, s.version);
        await call(signUp, 'requestCode', s.email);
        const code = await mailbox(s.email);
        const sent = signUp.page.waitForRequest((r) => r.url().endsWith(`/v${s.version}/register`));
        s.self = await call(signUp, 'signUp', { name: s.name, email: s.email, password: PASSWORD, code });
        expect(s.self.domain).toBe(DOMAIN);
        // What left the browser: the web app's body, its nulls included (the SDK gzips it).
        const register = await sent;
        const headers = await register.allHeaders();
        expect(headers).toMatchObject({ origin: APP_ORIGIN, 'content-encoding': 'gzip' });
        expect(JSON.parse(gunzipSync(register.postDataBuffer()!).toString())).toEqual({
          accent_id: 1,
          assets: null,
          email: s.email,
          email_code: code,
          invitation_code: null,
          label: null,
          locale: 'en-US',
          name: s.name,
          password: PASSWORD,
          team: null,
          termsAccepted: true,
        });

        // The cookie the sign-up set: in the jar for the API's host, HttpOnly, sent only to /access.
        const zuid = await zuidOf(signUp);
        expect(zuid).toMatchObject({ domain: HOSTS.rest, path: '/access', httpOnly: true });
        expect(await signUp.page.evaluate(() => document.cookie)).toBe('');

        expect(await call(signUp, 'consent')).toEqual({
          results: [expect.objectContaining({ type: 2, value: 1 })],
        });
        expect(await call(signUp, 'setHandle', s.handle)).toBe(s.handle);
        await call(signUp, 'logout');
      }),
    );
  });

  it('signs in from a second profile: the cookie in that jar, the token renewed through it', async () => {
    await Promise.all(
      [alice, bob].map(async (s) => {
        s.device = await openProfile(s.name, s.version);
        expect(await zuidOf(s.device)).toBeUndefined();
        const login = s.device.page.waitForRequest((r) => new URL(r.url()).pathname === `/v${s.version}/login`);
        expect(await call(s.device, 'login', s.email, PASSWORD)).toEqual(s.self);
        expect(new URL((await login).url()).search).toBe('?persist=true');
        expect(await zuidOf(s.device)).toMatchObject({ domain: HOSTS.rest, path: '/access', httpOnly: true });
        // The renewal: the browser attaches the cookie from this profile's jar, the SDK the old token.
        const access = s.device.page.waitForRequest((r) => new URL(r.url()).pathname === '/access');
        expect(await call(s.device, 'refresh')).toEqual({ expires_in: expect.any(Number), same_user: true });
        expect(await (await access).allHeaders()).toMatchObject({
          origin: APP_ORIGIN,
          cookie: expect.stringMatching(/^zuid=/),
          authorization: expect.stringMatching(/^Bearer /),
        });
      }),
    );
  });

  let pingInterval = 0;

  it('registers a client with prekeys and MLS key packages, and opens its notification socket', async () => {
    await Promise.all(
      [alice, bob].map(async (s) => {
        const { client, suite } = await call(s.device, 'registerClient', PASSWORD, s.consumable);
        expect(client).toMatch(/^[0-9a-f]{1,16}$/);
        expect(suite).toBeGreaterThan(0);
        await call(s.device, 'listen', s.consumable);
      }),
    );
    pingInterval = await call(alice.device, 'pingInterval');
    expect(pingInterval).toBeGreaterThan(0);
  });

  let one2one: Qid;
  const names = () => ({ [alice.self.id]: 'alice', [bob.self.id]: 'bob' });
  /** An event as a line: its type, and what tells it apart here. */
  const line = (e: LoggedEvent) => {
    const ev = e.event as {
      connection?: { status: string };
      data?: { type?: number; user_ids?: string[] };
    };
    if (e.type === 'user.connection') return `user.connection ${ev.connection?.status}`;
    if (e.type === 'conversation.create') return `conversation.create (type ${ev.data?.type})`;
    if (e.type === 'conversation.member-join')
      return `conversation.member-join ${(ev.data?.user_ids ?? []).map((u) => names()[u] ?? u).join(',')}`;
    return e.type;
  };
  /** The connection's events among `events`, as lines. */
  const connectionLines = (events: LoggedEvent[], source?: LoggedEvent['source']) =>
    events
      .filter((e) => source === undefined || e.source === source)
      .filter(
        (e) =>
          e.type === 'user.connection' ||
          (e.type.startsWith('conversation.') &&
            (e.event as { qualified_conversation?: Qid }).qualified_conversation?.id === one2one.id),
      )
      .map(line);

  it('connects: the request, its acceptance and their 1:1, each side hearing wire-server’s events in order', async () => {
    const sent = (await call(alice.device, 'connect', bob.self)) as { status: string; qualified_conversation: Qid };
    expect(sent.status).toBe('sent');
    one2one = sent.qualified_conversation;
    await call(bob.device, 'connectionEvent', 'pending');
    expect(await call(bob.device, 'accept', alice.self)).toMatchObject({ status: 'accepted' });
    await Promise.all([
      call(alice.device, 'connectionEvent', 'accepted'),
      call(bob.device, 'connectionEvent', 'accepted'),
    ]);

    expect(await call(alice.device, 'conversation', one2one)).toEqual({
      type: 2,
      protocol: 'proteus',
      others: [bob.self.id],
    });
    expect(await call(bob.device, 'conversation', one2one)).toEqual({
      type: 2,
      protocol: 'proteus',
      others: [alice.self.id],
    });

    // Alice's stream has everything; her socket, not what her own request (same connection) caused.
    expect
      .soft(connectionLines(await call(alice.device, 'stream')))
      .toEqual([
        'conversation.create (type 3)',
        'conversation.connect-request',
        'user.connection sent',
        'conversation.member-join bob',
        'user.connection accepted',
      ]);
    expect
      .soft(connectionLines(await call(alice.device, 'events'), 'await'))
      .toEqual(['conversation.member-join bob', 'user.connection accepted']);
    // Bob's client consumes its queue: everything for it, his own acceptance included.
    expect
      .soft(connectionLines(await call(bob.device, 'events'), 'events'))
      .toEqual(['user.connection pending', 'conversation.member-join bob', 'user.connection accepted']);
  });

  it('texts both ways in the 1:1 (Proteus), each decrypted by the other page', async () => {
    const hello = `Hello Bob, from Alice's browser ${tag}`;
    await call(alice.device, 'sendText', one2one, hello);
    expect(await call(bob.device, 'message', { via: 'proteus', text: hello })).toMatchObject({
      conversation: one2one,
      from: alice.self,
    });
    const reply = `Hi Alice, Bob here ${tag}`;
    await call(bob.device, 'sendText', one2one, reply);
    expect(await call(alice.device, 'message', { via: 'proteus', text: reply })).toMatchObject({
      conversation: one2one,
      from: bob.self,
    });
  });

  it('sends an image: uploaded by Alice’s page, downloaded from the store and decrypted by Bob’s', async () => {
    const sent = await call(alice.device, 'sendImage', one2one);
    const received = await call(bob.device, 'message', { messageId: sent.messageId });
    expect(received).toMatchObject({
      via: 'proteus',
      from: alice.self,
      asset: { mimeType: 'image/png', size: sent.size, width: 64, height: 48 },
    });
    // Bob's page downloads it: the backend redirects to the object store, which it reaches under
    // its CSP, the bucket's CORS allowing the redirected request (`Origin: null`).
    const fromStore = bob.device.page.waitForResponse((r) => new URL(r.url()).hostname === 'localhost');
    expect(await call(bob.device, 'showImage', sent.messageId)).toEqual({
      mimeType: 'image/png',
      width: 64,
      height: 48,
      sha256: sent.sha256,
    });
    const download = await fromStore;
    expect(new URL(download.url()).protocol).toBe('https:');
    expect(download.status()).toBe(200);
    expect(await download.headerValue('access-control-allow-origin')).toBe('null');
  });

  it('an MLS group: Alice creates it and adds Bob by a commit; each reads the other’s message', async () => {
    const group = await call(alice.device, 'createMlsGroup', `Browsers ${tag}`, bob.self);
    await call(bob.device, 'joined', group);
    expect(await call(bob.device, 'conversation', group)).toEqual({
      type: 0,
      protocol: 'mls',
      others: [alice.self.id],
    });
    const hello = `MLS hello from Alice ${tag}`;
    await call(alice.device, 'sendMls', group, hello);
    expect(await call(bob.device, 'message', { via: 'mls', text: hello })).toMatchObject({
      conversation: group,
      from: alice.self,
    });
    const reply = `MLS reply from Bob ${tag}`;
    await call(bob.device, 'sendMls', group, reply);
    expect(await call(alice.device, 'message', { via: 'mls', text: reply })).toMatchObject({
      conversation: group,
      from: bob.self,
    });
  });

  it('held both notification sockets across three of the client’s ping intervals, without reconnecting', async () => {
    const socketsOf = (s: Someone, path: string) =>
      s.device.watch.sockets.filter((k) => new URL(k.url).pathname === path);
    const [awaits, events] = [socketsOf(alice, '/await'), socketsOf(bob, `/v${bob.version}/events`)];
    expect(awaits).toHaveLength(1);
    expect(events).toHaveLength(1);
    // Each socket is held (the steps above ran meanwhile) until three of the SDK's ping intervals
    // and a margin have passed since it opened, or until it closes.
    const hold = (s: Someone, socket: SocketRecord) =>
      socketsSettle(
        s.device.watch,
        () => socket.closedAt !== undefined,
        socket.openedAt + 3 * pingInterval + 5_000 - Date.now(),
      );
    await Promise.all([hold(alice, awaits[0]!), hold(bob, events[0]!)]);
    const view = (s: SocketRecord) => ({
      closed: s.closedAt === undefined ? 'no' : `after ${Math.round((s.closedAt - s.openedAt) / 1000)} s`,
      pings: s.sent.filter((f) => f === 'ping').length,
      pongs: s.pongs.map((p) => (p.binary ? 'binary' : 'text')),
    });
    // Alice's /await: the SDK's three pings, each answered by a pong it reads (binary, as cannon
    // sends every frame); an unanswered ping makes it reconnect.
    expect.soft(view(awaits[0]!)).toEqual({ closed: 'no', pings: 3, pongs: ['binary', 'binary', 'binary'] });
    expect.soft(socketsOf(alice, '/await')).toHaveLength(1);
    // Bob's /events: no application pings (the web app sends none there: cannon pings the browser,
    // which answers by itself), only acks; kept open all along.
    expect.soft(view(events[0]!)).toEqual({ closed: 'no', pings: 0, pongs: [] });
    expect.soft(await call(bob.device, 'eventsSocketState')).toEqual({ opened: 1, open: true, closes: [] });
  }, 120_000);

  it('no page saw an error caused by a backend answer (console, CORS, CSP, failed requests)', () => {
    // The SDK asks for /self right after sign-up, before it has a token: 401, then it renews
    // the token through the new cookie and asks again (as the web app does).
    const expected = (p: Profile) => (a: BackendAnswer) =>
      p.name.endsWith('(sign-up profile)') && a.method === 'GET' && /\/v[0-9]+\/self$/.test(a.url) && a.status === 401;
    expect(profiles.flatMap((p) => problemsOf(p.watch, expected(p)))).toEqual([]);
  });
});
