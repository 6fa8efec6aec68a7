import { EventEmitter } from 'node:events';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { proteusKeys } from './prekeys.js';
import { rsaTlsIdentity } from './rsa-tls.js';

/** A bot creation request as the service received it. */
interface NewBotCall {
  authorization: string | undefined;
  body: any;
}

/**
 * A service (a bot integration) as wire specifies it, on loopback over TLS with a self-signed RSA
 * certificate (the provider registers its key): `POST {base}/bots` makes a bot and answers its real
 * Proteus prekeys; `POST {base}/bots/{bot}/messages` takes the bot's events, which it records.
 */
export interface BotService {
  /** The base URL a provider registers (`https://127.0.0.1:<port>/service`). */
  baseUrl: string;
  publicKeyPem: string;
  authToken: string;
  newBots: NewBotCall[];
  /** How the next `POST /bots` is answered: a bot, 409 (enough bots), or an answer that is no NewBotResponse. */
  creation: 'ok' | 'full' | 'garbage';
  /** What a bot's events are answered with: 200, or 410 (the bot is gone). */
  eventStatus: 200 | 410;
  /** The events the bot received so far. */
  eventsOf(bot: string): any[];
  /** Resolves with the bot's first event (already received or still to come) that matches. */
  nextEvent(bot: string, match: (e: any) => boolean, what: string): Promise<any>;
  stop(): Promise<void>;
}

export async function startBotService(): Promise<BotService> {
  const identity = await rsaTlsIdentity();
  const events = new Map<string, any[]>();
  const arrived = new EventEmitter();
  const service: Omit<BotService, 'baseUrl' | 'stop'> = {
    publicKeyPem: identity.publicKeyPem,
    authToken: 'Ym90LXNlcnZpY2UtdG9rZW4',
    newBots: [],
    creation: 'ok',
    eventStatus: 200,
    eventsOf: (bot) => events.get(bot) ?? [],
    nextEvent: (bot, match, what) =>
      new Promise((resolve, reject) => {
        const seen = service.eventsOf(bot).find(match);
        if (seen !== undefined) return resolve(seen);
        const timer = setTimeout(() => {
          arrived.off(bot, check);
          reject(new Error(`the bot's service got no ${what}`));
        }, 20_000);
        const check = (e: any) => {
          if (!match(e)) return;
          clearTimeout(timer);
          arrived.off(bot, check);
          resolve(e);
        };
        arrived.on(bot, check);
      }),
  };
  const answer = async (path: string, authorization: string | undefined, body: any): Promise<[number, unknown]> => {
    if (path === '/bots') {
      service.newBots.push({ authorization, body });
      if (service.creation === 'full') return [409, {}];
      if (service.creation === 'garbage') return [201, { prekeys: 'none' }];
      const keys = await proteusKeys(3);
      return [201, { prekeys: keys.prekeys, last_prekey: keys.lastkey, name: 'Weather Bot', accent_id: 3 }];
    }
    const bot = /^\/bots\/([0-9a-f-]{36})\/messages$/.exec(path)?.[1];
    if (bot === undefined || authorization !== `Bearer ${service.authToken}`) return [404, {}];
    events.set(bot, [...service.eventsOf(bot), body]);
    arrived.emit(bot, body);
    return [service.eventStatus, {}];
  };
  const server = https.createServer({ key: identity.key, cert: identity.cert }, (req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\/service/, '');
      void answer(path, req.headers.authorization, text === '' ? undefined : JSON.parse(text)).then(
        ([status, body]) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        },
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return Object.assign(service, {
    baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}/service`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  });
}
