import { describe, expect, it } from 'vitest';
import { workerdSuite } from '../../helpers/workerd.js';

// The scenarios run in workerd, on a Durable Object's SQLite (test/workerd/bytes-parts.scenarios.ts).
const run = workerdSuite('bytes-parts');

describe('bytes kept in parts (a large group’s GroupInfo)', () => {
  it('keeps bytes longer than a row in parts and gives them back byte for byte; a replacement takes their place', async () => {
    expect(await run('round-trip')).toEqual({ big: { rows: 3, differs: -1 }, small: { rows: 1, differs: -1 } });
  });

  it('keeps empty bytes; has nothing for an owner dropped or never written', async () => {
    expect(await run('empty-and-dropped')).toEqual({ empty: 0, other: null, none: null });
  });
});
