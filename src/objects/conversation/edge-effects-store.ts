import { pendingEffectsStore, type StoredEffect } from '../../shared/effects/pending-effects-store.js';

/**
 * Effects a change of the conversation causes that the edge carries out (telling other backends,
 * the members' lists of their conversations): recorded in the change's own transaction of the
 * object's storage, then handed over to D1's `pending_effects` (the row the edge settles, or its
 * sweep after a crash) and forgotten here. A hand-over a crash cut is made again by the alarm: an
 * effect may be recorded twice, as every effect may be carried out twice.
 */
export class EdgeEffectsStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS edge_effects (id INTEGER PRIMARY KEY AUTOINCREMENT, effects TEXT NOT NULL)');
  }

  /** Records effects (inside the caller's transaction); their local number. */
  record(effects: readonly StoredEffect[]): number {
    const [row] = this.sql
      .exec<{ id: number }>('INSERT INTO edge_effects (effects) VALUES (?) RETURNING id', JSON.stringify(effects))
      .toArray();
    return row!.id;
  }

  any(): boolean {
    return this.sql.exec('SELECT 1 FROM edge_effects LIMIT 1').toArray().length > 0;
  }

  /** Hands one record (or, without `only`, every one) over to D1; the pending row's id of `only`. */
  async handOver(d1: D1Database, only?: number): Promise<number | undefined> {
    const rows =
      only === undefined
        ? this.sql.exec<{ id: number; effects: string }>('SELECT id, effects FROM edge_effects ORDER BY id').toArray()
        : this.sql
            .exec<{ id: number; effects: string }>('SELECT id, effects FROM edge_effects WHERE id = ?', only)
            .toArray();
    let pending: number | undefined;
    for (const r of rows) {
      const effects = JSON.parse(r.effects) as StoredEffect[];
      pending = pendingEffectsStore.idOf(await pendingEffectsStore.insert(d1, effects, Date.now()).all());
      this.sql.exec('DELETE FROM edge_effects WHERE id = ?', r.id);
    }
    return pending;
  }
}
