import { describe, expect, it } from 'vitest';
import { workerdSuite } from '../../helpers/workerd.js';

// The scenarios run in workerd, on a Durable Object's SQLite (test/workerd/log-store.scenarios.ts).
const run = workerdSuite('log-store');

describe('the notification log', () => {
  it('stores a conversation delivery once for all its recipients, an id per entry of a user', async () => {
    expect(await run('conversation-row')).toEqual({
      rows: 1,
      distinctIds: 2,
      bobSharesAlicesFirstId: true,
      alice: [{ n: 1 }, { n: 2 }],
      aliceA2: [{ n: 2 }],
      bob: [{ n: 3 }],
    });
  });

  it('stores other deliveries in each recipient’s own channel', async () => {
    expect(await run('own-channels')).toEqual({ rows: 2, alice: [{ n: 1 }], bob: [{ n: 2 }] });
  });

  it('shows a new member a conversation’s rows from the first one naming them', async () => {
    expect(await run('new-member')).toEqual({ alice: [{ n: 1 }, { n: 2 }, { n: 3 }], bob: [{ n: 2 }] });
  });

  it('pages from `since`, finds the last and a given notification, and only the user’s', async () => {
    expect(await run('paging')).toEqual({
      page: [true, true, [{ n: 2 }]],
      rest: [true, false, [{ n: 3 }]],
      unknown: [false, 3],
      last: { n: 3 },
      got: { n: 1 },
      notBobs: null,
    });
  });

  it('keeps no row of a transient delivery, and finds a marked one by its mark', async () => {
    expect(await run('transient-and-marks')).toEqual({
      transientIds: 1,
      rows: 1,
      holdsMarked: true,
      holdsOtherMark: false,
      holdsUnmarked: false,
    });
  });

  it('drops rows older than the TTL, telling the queues the cut-off first', async () => {
    expect(await run('purge')).toEqual({ listed: [{ n: 2 }], rows: 1, cutoffNearTtl: true });
  });

  it('moves streams of the earlier layout into the users’ own channels, once', async () => {
    expect(await run('old-layout')).toEqual({
      alice: [{ n: '1' }, { n: '2' }],
      aliceA1: [{ n: '1' }],
      rows: 2,
      oldTable: 0,
    });
  });
});
