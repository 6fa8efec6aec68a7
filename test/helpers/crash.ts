import { expect } from 'vitest';
import { startEditedBackend, type TestBackend } from './backend.js';
import type { TestUser } from './users.js';
import { waitFor } from './wait.js';
import { getNotifications } from './endpoints/gundeck.js';

/** Where a change waits once its writes are committed, before any of its effects (see commitChange). */
const CHANGE_COMMITTED = 'change-committed';

export type StreamEvent = { type: string; conversation?: string; data?: any; [field: string]: any };

/** Every event in a user's stream (all clients'), in order. */
export async function eventsOf(base: string, u: TestUser): Promise<StreamEvent[]> {
  const r = await getNotifications(base, u.token, { size: 1000 });
  expect(r.status, r.text).toBe(200);
  return r.body.notifications.flatMap((n: { payload: StreamEvent[] }) => n.payload);
}

/**
 * Crashes a backend between changes and their effects: starts it on `stateDir` with the fault
 * point set, sends the requests `fire` makes (each must reach the point: one committed change
 * each), kills the runtime once all of them wait there, and starts the backend again on the same
 * state, which carries out what was left pending. No request got an answer. Returns the backend
 * as restarted.
 */
export async function crashBetweenChangesAndEffects(
  stateDir: string,
  fire: (b: TestBackend) => Promise<unknown>[],
  o: {
    sidecar?: boolean;
    /** How the backend starts on its state (default: the shipped configuration on `stateDir`). */
    start?: (faultPoint?: string) => Promise<TestBackend>;
    /** Changes that notifications from other backends make meanwhile, besides the requests': they reach the point too. */
    notified?: number;
  } = {},
): Promise<TestBackend> {
  const start =
    o.start ??
    ((faultPoint?: string) =>
      startEditedBackend([], {
        stateDir,
        ...(faultPoint === undefined ? {} : { faultPoint }),
        ...(o.sidecar === undefined ? {} : { sidecar: o.sidecar }),
      }));
  const b = await start(CHANGE_COMMITTED);
  const requests = fire(b).map((p) =>
    p.then(
      (r) =>
        ((r as { status?: number } | undefined)?.status ?? 0) < 500
          ? `answered ${(r as { status?: number }).status}`
          : 'no answer',
      () => 'no answer',
    ),
  );
  const reached = () => b.logs.filter((l) => l.includes(`fault point reached: ${CHANGE_COMMITTED}`)).length;
  const expected = requests.length + (o.notified ?? 0);
  await waitFor(async () => reached() === expected || undefined, 'every change at the fault point', 30_000);
  await b.stop();
  expect(await Promise.all(requests)).toEqual(requests.map(() => 'no answer'));
  return start();
}
