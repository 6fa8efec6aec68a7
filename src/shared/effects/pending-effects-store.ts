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
}

/**
 * `pending_effects`: what committed changes must still cause (see migrations/0030). A change's
 * batch ends with `insert`, whose result row carries the id; the effects are carried out and the
 * row removed, or the sweep finds it after a crash. Written through the D1 binding itself, so that
 * the edge's drizzle batches and the objects' plain ones can both end with it.
 */
export const pendingEffectsStore = {
  insert<S extends Statement>(d1: Database<S>, effects: readonly StoredEffect[], now: number): S {
    return d1
      .prepare('INSERT INTO pending_effects (created_at, effects) VALUES (?, ?) RETURNING id')
      .bind(now, JSON.stringify(effects)) as S;
  },

  /** The id the batch's `insert` statement gave its row. */
  idOf(result: { results: unknown[] }): number {
    const row = result.results[0] as { id: number } | undefined;
    if (row === undefined) throw new Error('pending_effects insert returned no id');
    return row.id;
  },

  async remove(d1: Database<Statement>, id: number): Promise<void> {
    await d1.prepare('DELETE FROM pending_effects WHERE id = ?').bind(id).run();
  },

  /** Rows written before `before` (ms), oldest first: their changes' own requests are over. */
  async older(d1: Database<Statement>, before: number, limit: number): Promise<PendingRow[]> {
    const { results } = await d1
      .prepare('SELECT id, effects FROM pending_effects WHERE created_at < ? ORDER BY id LIMIT ?')
      .bind(before, limit)
      .all<{ id: number; effects: string }>();
    return results.map((r) => ({ id: r.id, effects: JSON.parse(r.effects) as StoredEffect[] }));
  },
};
