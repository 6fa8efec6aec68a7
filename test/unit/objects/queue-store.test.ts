import { describe, expect, it } from 'vitest';
import { workerdSuite } from '../../helpers/workerd.js';

// The scenarios run in workerd, on a Durable Object's SQLite (test/workerd/queue-store.scenarios.ts).
const run = workerdSuite('queue-store');

describe('the /events queues', () => {
  it('start empty', async () => {
    expect(await run('starts-empty')).toEqual({ pending: [2], has: true, other: false });
  });

  it('take `multiple` acks up to the tag', async () => {
    expect(await run('ack-multiple')).toEqual({ pending: [3] });
  });

  it('keep a single ack ahead aside until the entries before it are acknowledged', async () => {
    expect(await run('ack-ahead')).toEqual({ waiting: [1], kept: 1, after: [], keptAfter: 0 });
  });

  it('ignore a tag never handed out', async () => {
    expect(await run('ack-unknown-tag')).toEqual({ pending: [1] });
  });

  it('move cursors past expired rows, marking clients that had not acknowledged them', async () => {
    expect(await run('expiry')).toEqual({ aliceMissed: true, bobMissed: false, pending: [2] });
  });

  it('forget a dropped queue', async () => {
    expect(await run('drop')).toEqual({ has: false, pending: [] });
  });
});
