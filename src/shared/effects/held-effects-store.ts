import type { QualifiedRef } from '../proteus/types.js';

/** What the store needs of a D1 binding (typed here without the workers' types: Node code shares this folder). */
interface Statement {
  bind(...values: unknown[]): Statement;
  run(): Promise<unknown>;
  all<T>(): Promise<{ results: T[] }>;
}
interface Database {
  prepare(sql: string): Statement;
}

/**
 * `held_effects` (migrations/0034): conversations whose object may hold effects for the edge not
 * yet handed over to `pending_effects`. The object marks itself before a change that records such
 * effects and clears the mark after their hand-over; the sweep wakes the objects still marked.
 */
export const heldEffectsStore = {
  async hold(d1: Database, conv: QualifiedRef, now: number): Promise<void> {
    await d1
      .prepare('INSERT OR REPLACE INTO held_effects (conv_domain, conv_id, created_at) VALUES (?, ?, ?)')
      .bind(conv.domain, conv.id, now)
      .run();
  },

  async release(d1: Database, conv: QualifiedRef): Promise<void> {
    await d1.prepare('DELETE FROM held_effects WHERE conv_domain = ? AND conv_id = ?').bind(conv.domain, conv.id).run();
  },

  /** Conversations marked before `before` (ms), oldest first. */
  async older(d1: Database, before: number, limit: number): Promise<QualifiedRef[]> {
    const { results } = await d1
      .prepare(
        'SELECT conv_domain AS domain, conv_id AS id FROM held_effects WHERE created_at < ? ORDER BY created_at LIMIT ?',
      )
      .bind(before, limit)
      .all<QualifiedRef>();
    return results;
  },
};
