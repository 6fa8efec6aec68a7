/** The `/events` websocket as wire-server's Test.Events drives it: events with delivery tags, acks. */
import { expect } from 'vitest';
import { proteusKeys } from '../../helpers/prekeys.js';
import type { TestUser } from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';
import { pub } from './env.js';
import { postClient, putSelfHandle } from '../../helpers/endpoints/brig.js';

export interface EventSocket {
  socket: TestSocket;
  /** The next message, whatever it is (assertEvent). */
  next(timeoutMs?: number): Promise<any>;
  /** The first message matching, acking those skipped (assertFindsEvent). */
  find(match: (m: any) => boolean): Promise<any>;
  ack(m: any, multiple?: boolean): void;
  ackTag(tag: number, multiple?: boolean): void;
  ackFullSync(): void;
  /** No message arrives within `ms` (assertNoEvent_). */
  none(ms?: number): Promise<void>;
  /** Every message until none arrives for `ms`, acked (consumeAllEvents). */
  drain(ms?: number): Promise<any[]>;
  /** Messages acked until the synchronization marker, which is included (consumeEventsUntilEndOfInitialSync). */
  untilSync(marker: string): Promise<any[]>;
  close(): Promise<void>;
}

/** A client with the consumable-notifications capability (mkUserPlusClient). */
export async function consumableClient(u: TestUser): Promise<string> {
  const r = await postClient(pub, u.token, {
    type: 'permanent',
    ...(await proteusKeys(1)),
    capabilities: ['consumable-notifications'],
    ...(u.password === undefined ? {} : { password: u.password }),
  });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

/** A legacy client (no capabilities). */
export async function legacyClient(u: TestUser): Promise<string> {
  const r = await postClient(pub, u.token, { type: 'permanent', ...(await proteusKeys(1)), password: u.password });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

export const payloadType = (m: any): string | undefined => m?.data?.event?.payload?.[0]?.type;
export const payload = (m: any): any => m?.data?.event?.payload?.[0];

export async function eventsSocket(
  u: { token: string },
  client?: string,
  syncMarker?: string,
  base = pub,
): Promise<EventSocket> {
  const q = [
    client === undefined ? undefined : `client=${client}`,
    syncMarker === undefined ? undefined : `sync_marker=${syncMarker}`,
    `access_token=${u.token}`,
  ].filter((x) => x !== undefined);
  const socket = await openSocket(base, `/v8/events?${q.join('&')}`);
  const seen: unknown[] = [];
  const ackTag = (tag: number, multiple = false) =>
    socket.send(JSON.stringify({ type: 'ack', data: { delivery_tag: tag, multiple } }));
  const ack = (m: any, multiple = false) => {
    if (m?.data?.delivery_tag !== undefined) ackTag(m.data.delivery_tag, multiple);
  };
  const self: EventSocket = {
    socket,
    next: (timeoutMs = 5000) =>
      socket
        .next(() => true, timeoutMs)
        .then(
          (m) => {
            seen.push(m);
            return m;
          },
          (err) => {
            throw new Error(`${err.message} (seen so far: ${JSON.stringify(seen).slice(0, 1500)})`);
          },
        ),
    async find(match) {
      for (;;) {
        const m = await socket.next(() => true, 5000);
        if (match(m)) return m;
        ack(m);
      }
    },
    ack,
    ackTag,
    ackFullSync: () => socket.send(JSON.stringify({ type: 'ack_full_sync' })),
    async none(ms = 500) {
      const m = await socket.next(() => true, ms).catch(() => undefined);
      if (m !== undefined) throw new Error(`unexpected event: ${JSON.stringify(m).slice(0, 800)}`);
    },
    async drain(ms = 500) {
      const out: any[] = [];
      for (;;) {
        try {
          const m = await socket.next(() => true, ms);
          ack(m);
          out.push(m);
        } catch {
          return out;
        }
      }
    },
    async untilSync(marker) {
      const out: any[] = [];
      for (;;) {
        const m = await socket.next(() => true, 5000);
        ack(m);
        out.push(m);
        if (m.type === 'synchronization') {
          expect(m.data.marker_id).toBe(marker);
          return out;
        }
      }
    },
    close: () => socket.close(),
  };
  return self;
}

let handles = 0;
export const randomHandle = () =>
  `h${Date.now().toString(36)}${(++handles).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** PUT /self/handle (wire's putHandle), expecting success. */
export async function putHandle(u: TestUser, handle: string): Promise<void> {
  const r = await putSelfHandle(pub, u.token, { handle });
  expect(r.status, r.text).toBe(200);
}
