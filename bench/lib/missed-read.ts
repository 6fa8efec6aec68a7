import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { getJson, send } from './otr-load.js';
import type { SeededUser } from './seed.js';
import { indexOf } from './fan-out-run.js';

export interface MissedRead {
  /** `GET /notifications`, paged, from the last id the client had seen. */
  pagedMs: number;
  /** `/events`: from the socket's opening to its synchronization marker. */
  eventsMs: number;
}

/** The message indices of a page of notifications, in order. */
function indices(events: Array<{ payload: unknown[] }>): number[] {
  return events.map((n) => indexOf(Buffer.from(JSON.stringify(n))) ?? -1);
}

function checkInOrder(what: string, got: number[], count: number): void {
  const expected = Array.from({ length: count }, (_, i) => i);
  if (got.length !== count || got.some((g, i) => g !== expected[i]))
    throw new Error(`${what}: ${got.length} of ${count} notifications, or out of order`);
}

/**
 * Clients that were away while `count` messages came read them back: a legacy client through
 * `GET /notifications`, a client with consumable notifications through its `/events` queue (as
 * gundeck splits them, each stream holds only its kind of client's). Both must give every message
 * once, in order.
 */
export async function readMissed(
  b: { publicUrl: URL; internalUrl: URL },
  readers: { legacy: SeededUser; queue: SeededUser },
  count: number,
  sendOne: (i: number) => Promise<void>,
): Promise<MissedRead> {
  const { legacy, queue } = readers;
  const client = legacy.clients[0]!;
  const auth = { authorization: `Bearer ${legacy.token}` };
  await send(
    `${b.internalUrl.origin}/i/users/${queue.id}/clients/${queue.clients[0]}/consumable-notifications`,
    new Uint8Array(),
    {},
    { status: 200 },
  );
  const base = `${b.publicUrl.origin}/v8/notifications`;
  const before = await getJson(`${base}?client=${client}&size=10000`, auth);
  const since: string | undefined = before.notifications.at(-1)?.id;
  for (let i = 0; i < count; i++) await sendOne(i);

  let start = performance.now();
  const paged: number[] = [];
  let from = since;
  for (;;) {
    const page = await getJson(`${base}?client=${client}&size=500${from === undefined ? '' : `&since=${from}`}`, auth);
    paged.push(...indices(page.notifications));
    from = page.notifications.at(-1)?.id ?? from;
    if (!page.has_more) break;
  }
  const pagedMs = performance.now() - start;
  checkInOrder('GET /notifications', paged, count);

  start = performance.now();
  const streamed: number[] = [];
  await new Promise<void>((resolve, reject) => {
    const url = `${b.publicUrl.origin.replace(/^http/, 'ws')}/v8/events?access_token=${queue.token}&client=${queue.clients[0]}&sync_marker=${randomUUID()}`;
    const ws = new WebSocket(url, { perMessageDeflate: false });
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8'));
      if (m.type === 'event') streamed.push(...indices([m.data.event]));
      if (m.type === 'synchronization') {
        ws.close();
        resolve();
      }
    });
    ws.once('error', reject);
  });
  const eventsMs = performance.now() - start;
  checkInOrder('/events', streamed, count);
  return { pagedMs, eventsMs };
}
