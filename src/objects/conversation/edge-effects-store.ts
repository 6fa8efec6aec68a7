import { splitText } from '../../shared/db/split-text.js';
import { pendingEffectsStore, type StoredEffect } from '../../shared/effects/pending-effects-store.js';
import { TextParts } from '../db/text-parts.js';

/**
 * Effects a change of the conversation causes that the edge carries out (telling other backends,
 * the members' lists of their conversations): recorded in the change's own transaction of the
 * object's storage, then handed over to D1's `pending_effects` (the row the edge settles, or its
 * sweep after a crash) and forgotten here. A hand-over a crash cut is made again by the alarm: an
 * effect may be recorded twice, as every effect may be carried out twice. A record longer than a
 * row (what other backends are told of a large group's commit) keeps the rest in parts.
 */
export class EdgeEffectsStore {
  private readonly parts: TextParts;

  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS edge_effects (id INTEGER PRIMARY KEY AUTOINCREMENT, effects TEXT NOT NULL)');
    this.parts = new TextParts(sql, 'edge_effect_parts', 'INTEGER');
  }

  /** Records effects (inside the caller's transaction); their local number. */
  record(effects: readonly StoredEffect[]): number {
    const [first, ...rest] = splitText(JSON.stringify(effects));
    const [row] = this.sql
      .exec<{ id: number }>('INSERT INTO edge_effects (effects) VALUES (?) RETURNING id', first!)
      .toArray();
    this.parts.put(row!.id, rest);
    return row!.id;
  }

  any(): boolean {
    return this.sql.exec('SELECT 1 FROM edge_effects LIMIT 1').toArray().length > 0;
  }

  /** Hands one record (or, without `only`, every one) over to D1; the pending row's id of `only`. */
  async handOver(d1: D1Database, only?: number): Promise<number | undefined> {
    const ids =
      only === undefined
        ? this.sql.exec<{ id: number }>('SELECT id FROM edge_effects ORDER BY id').toArray()
        : this.sql.exec<{ id: number }>('SELECT id FROM edge_effects WHERE id = ?', only).toArray();
    let pending: number | undefined;
    for (const { id } of ids) {
      const effects = JSON.parse(this.text(id)) as StoredEffect[];
      const [inserted] = await d1.batch(pendingEffectsStore.insert(d1, effects, Date.now()));
      pending = pendingEffectsStore.idOf(inserted as { results: unknown[] });
      this.sql.exec('DELETE FROM edge_effects WHERE id = ?', id);
      this.parts.drop(id);
    }
    return pending;
  }

  /** A record's text, its parts joined: read one at a time, as a large one may be megabytes. */
  private text(id: number): string {
    const [row] = this.sql.exec<{ effects: string }>('SELECT effects FROM edge_effects WHERE id = ?', id).toArray();
    return row!.effects + this.parts.joined(id);
  }
}
