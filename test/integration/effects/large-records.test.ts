import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { addClient } from '../../helpers/clients.js';
import { createUser, type TestUser } from '../../helpers/users.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

/** The parts of a text past D1's 2 MB row, as the stores cut it (src/shared/db/split-text.ts). */
const partsOf = (text: string, size = 500_000) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

/**
 * A change's effects longer than a row (what other backends are told of a large MLS group's
 * commit) are recorded in parts; the sweep reads them whole after a crash.
 */
describe('effects longer than a row', () => {
  let b: TestBackend;
  let user: TestUser;
  let client: string;
  beforeAll(async () => {
    b = await startEditedBackend([]);
    user = await createUser(b.publicUrl, b.internalUrl);
    client = await addClient(b.publicUrl, user);
  });
  afterAll(async () => b?.stop());

  it('are carried out whole by the sweep, and their parts removed with them; the sweep goes on after them', async () => {
    const data = 'x'.repeat(2_500_000);
    // Records as changes whose requests died leave them: a notification for the user of 2.5 MB, then a small one.
    const notifying = (type: string, middle: string) =>
      JSON.stringify([
        {
          kind: 'deliveries',
          args: {
            deliveries: [{ head: `[{"type":"${type}","data":"`, tail: '"}]', to: [[user.id, null, middle]] }],
            ttlSeconds: 3600,
          },
        },
      ]);
    const [first, ...rest] = partsOf(notifying('test.large-record', data));
    expect(rest.length).toBeGreaterThan(3);
    const [row] = await b.query<{ id: number }>(
      'INSERT INTO pending_effects (created_at, effects, parts) VALUES (0, ?, ?) RETURNING id',
      first,
      rest.length,
    );
    for (const [i, text] of rest.entries())
      await b.query('INSERT INTO pending_effect_parts (id, part, text) VALUES (?, ?, ?)', row!.id, i + 1, text);
    const [after] = await b.query<{ id: number }>(
      'INSERT INTO pending_effects (created_at, effects) VALUES (0, ?) RETURNING id',
      notifying('test.after-large-record', 'small'),
    );

    await b.runScheduled();

    const seen = await getNotifications(b.publicUrl, user.token, { client, size: 100 });
    expect(seen.status, seen.text).toBe(200);
    const events = seen.body.notifications
      .flatMap((n: { payload: Array<{ type: string; data: string }> }) => n.payload)
      .filter((e: { type: string }) => e.type === 'test.large-record');
    expect(events).toHaveLength(1);
    expect(events[0].data === data).toBe(true);
    // The sweep took the large record alone, and went on in the same run.
    const later = seen.body.notifications
      .flatMap((n: { payload: Array<{ type: string; data: string }> }) => n.payload)
      .filter((e: { type: string }) => e.type === 'test.after-large-record');
    expect(later).toEqual([{ type: 'test.after-large-record', data: 'small' }]);
    expect(await b.query('SELECT id FROM pending_effects WHERE id IN (?, ?)', row!.id, after!.id)).toEqual([]);
    expect(await b.query('SELECT part FROM pending_effect_parts WHERE id = ?', row!.id)).toEqual([]);
  });
});
