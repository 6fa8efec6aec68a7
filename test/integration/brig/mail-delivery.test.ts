import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { uniqueEmail } from '../../helpers/users.js';
import { postActivateSend } from '../../helpers/endpoints/brig.js';

const delivery = (value: unknown) => ['brig.yaml', ['emailSMS', 'delivery'], value] as [string, string[], unknown];

/** Collects what arrives; resolves waiters as soon as a matching item is there. */
class Inbox<T> {
  private readonly items: T[] = [];
  private readonly waiters: Array<() => void> = [];
  push(item: T) {
    this.items.push(item);
    for (const w of this.waiters.splice(0)) w();
  }
  async first(match: (item: T) => boolean): Promise<T> {
    for (;;) {
      const found = this.items.find(match);
      if (found !== undefined) return found;
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }
}

describe('mail through an HTTP mail API', () => {
  let server: Server;
  let b: TestBackend;
  const inbox = new Inbox<{ authorization: string | undefined; body: any }>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        inbox.push({ authorization: req.headers.authorization, body: JSON.parse(text) });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    b = await startEditedBackend([
      delivery({ type: 'http', url: `http://127.0.0.1:${port}/send`, authorization: 'Bearer mail-key' }),
    ]);
  });
  afterAll(async () => {
    await b?.stop();
    server?.close();
  });

  it('POSTs the rendered mail as JSON with the configured authorization', async () => {
    const email = uniqueEmail('http-mail');
    expect((await postActivateSend(b.publicUrl, { email, locale: 'de' })).status).toBe(200);
    const sent = await inbox.first((m) => m.body.to === email);
    expect(sent.authorization).toBe('Bearer mail-key');
    expect(sent.body).toMatchObject({ from: 'backend@example.com', to: email, subject: 'Dein Bestätigungscode' });
    expect(sent.body.text).toMatch(/\d{6}/);
    expect(sent.body.html).toMatch(/^<!doctype html>/);
  });
});

describe('mail through SMTP', () => {
  let smtp: SMTPServer;
  let b: TestBackend;
  const inbox = new Inbox<{ to: string; user: string | undefined; data: string }>();
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth: (auth, _session, cb) =>
        auth.username === 'relay' && auth.password === 'relay-secret'
          ? cb(null, { user: auth.username })
          : cb(new Error('bad login')),
      onData: (stream, session, cb) => {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo[0]!.address, user: session.user as string | undefined, data });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', () => r()));
    const { port } = smtp.server.address() as AddressInfo;
    b = await startEditedBackend([
      delivery({
        type: 'smtp',
        host: '127.0.0.1',
        port,
        startTls: false,
        credentials: { username: 'relay', password: 'relay-secret' },
      }),
    ]);
  });
  afterAll(async () => {
    await b?.stop();
    await new Promise<void>((r) => smtp?.close(() => r()));
  });

  it('sends the activation mail through the relay, authenticated', async () => {
    const email = uniqueEmail('smtp-mail');
    expect((await postActivateSend(b.publicUrl, { email })).status).toBe(200);
    const sent = await inbox.first((m) => m.to === email);
    expect(sent.user).toBe('relay');
    expect(sent.data).toMatch(/Subject: Your verification code/);
    expect(sent.data).toMatch(/\d{6}/);
  });
});
