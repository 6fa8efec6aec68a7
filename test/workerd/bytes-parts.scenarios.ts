// BytesParts over a Durable Object's SQLite: what test/unit/objects/bytes-parts.test.ts asserts on.
import { BytesParts } from '../../src/objects/db/bytes-parts.js';
import type { Scenario } from './scenarios.js';

/** Bytes that tell their order: byte i is i mod 251 (a prime, so parts do not repeat each other). */
const counting = (size: number) => Uint8Array.from({ length: size }, (_, i) => i % 251);

/** Where two byte strings first differ (-1: equal). */
function firstDifference(a: Uint8Array | undefined, b: Uint8Array): number {
  if (a === undefined) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

const partsOf = (sql: SqlStorage, owner: string) =>
  sql.exec<{ n: number }>('SELECT count(*) AS n FROM parts WHERE owner = ?', owner).one().n;

export const bytesPartsScenarios: Record<string, Scenario> = {
  /** 2.5 MB in three rows comes back byte for byte; a small one replaces it in one row. */
  'round-trip': (sql) => {
    const store = new BytesParts(sql, 'parts');
    const large = counting(2_500_000);
    store.replace('g', large);
    const big = { rows: partsOf(sql, 'g'), differs: firstDifference(store.joined('g'), large) };
    const small = counting(10);
    store.replace('g', small);
    return { big, small: { rows: partsOf(sql, 'g'), differs: firstDifference(store.joined('g'), small) } };
  },

  /** Empty bytes are kept (one empty part); unknown and dropped owners have none. */
  'empty-and-dropped': (sql) => {
    const store = new BytesParts(sql, 'parts');
    store.replace('empty', new Uint8Array());
    store.replace('other', counting(3));
    store.drop('other');
    return {
      empty: store.joined('empty')?.length ?? null,
      other: store.joined('other') ?? null,
      none: store.joined('none') ?? null,
    };
  },
};
