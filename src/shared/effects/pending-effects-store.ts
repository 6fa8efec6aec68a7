import { splitText } from '../db/split-text.js';

/** One change's effects as the table keeps them: `{kind, args}` in the order they are carried out. */
export interface StoredEffect {
  kind: string;
  args: unknown;
}

export interface PendingRow {
  id: number;
  effects: StoredEffect[];
}

/** What the store needs of a D1 binding (typed here without the workers' types: Node code shares this folder). */
interface Statement {
  bind(...values: unknown[]): Statement;
  run(): Promise<unknown>;
  all<T>(): Promise<{ results: T[] }>;
}
interface Database<S extends Statement> {
  prepare(sql: string): S;
  batch(statements: S[]): Promise<unknown[]>;
}

/**
 * `pending_effects`: what committed changes must still cause (see migrations/0030). A change's
 * batch ends with `insert`'s statements, the first of whose result rows carries the id; the
 * effects are carried out and the row removed, or the sweep finds it after a crash. Effects longer
 * than a row (what other backends are told of a large MLS group's commit) keep the rest of their
 * text in `pending_effect_parts` (migrations/0036). Written through the D1 binding itself, so
 * that the edge's drizzle batches and the objects' plain ones can both end with it.
 */
export const pendingEffectsStore = {
  insert<S extends Statement>(d1: Database<S>, effects: readonly StoredEffect[], now: number): S[] {
    const [first, ...rest] = splitText(JSON.stringify(effects));
    return [
      d1
        .prepare('INSERT INTO pending_effects (created_at, effects, parts) VALUES (?, ?, ?) RETURNING id')
        .bind(now, first, rest.length) as S,
      // The row just inserted, in the same batch (a transaction: nobody else inserts meanwhile).
      ...rest.map(
        (text, i) =>
          d1
            .prepare(
              'INSERT INTO pending_effect_parts (id, part, text) VALUES ((SELECT max(id) FROM pending_effects), ?, ?)',
            )
            .bind(i + 1, text) as S,
      ),
    ];
  },

  /** The id the batch's first `insert` statement gave its row. */
  idOf(result: { results: unknown[] }): number {
    const row = result.results[0] as { id: number } | undefined;
    if (row === undefined) throw new Error('pending_effects insert returned no id');
    return row.id;
  },

  async remove(d1: Database<Statement>, id: number): Promise<void> {
    await d1.batch([
      d1.prepare('DELETE FROM pending_effect_parts WHERE id = ?').bind(id),
      d1.prepare('DELETE FROM pending_effects WHERE id = ?').bind(id),
    ]);
  },

  /**
   * Rows written before `before` (ms), oldest first: their changes' own requests are over; `more`
   * when others may follow them. A row kept in parts comes alone (first, or not at all: the next
   * call starts with it), so that a round holds at most one large text.
   */
  async older(d1: Database<Statement>, before: number, limit: number): Promise<{ rows: PendingRow[]; more: boolean }> {
    const { results } = await d1
      .prepare('SELECT id, effects, parts FROM pending_effects WHERE created_at < ? ORDER BY id LIMIT ?')
      .bind(before, limit)
      .all<{ id: number; effects: string; parts: number }>();
    const large = results.findIndex((r) => r.parts > 0);
    const taken = large < 0 ? results : large === 0 ? results.slice(0, 1) : results.slice(0, large);
    const rows = await Promise.all(
      taken.map(async (r) => ({ id: r.id, effects: JSON.parse(await joined(d1, r)) as StoredEffect[] })),
    );
    return { rows, more: taken.length < results.length || results.length === limit };
  },
};

/** A row's text with its parts after it. */
async function joined(d1: Database<Statement>, r: { id: number; effects: string; parts: number }): Promise<string> {
  if (r.parts === 0) return r.effects;
  const { results } = await d1
    .prepare('SELECT text FROM pending_effect_parts WHERE id = ? ORDER BY part')
    .bind(r.id)
    .all<{ text: string }>();
  return r.effects + results.map((p) => p.text).join('');
}
