import type { QualifiedRef } from '../../shared/proteus/types.js';

/**
 * Whether the conversation's rows of earlier versions (in D1) have moved into the object, and
 * which conversation the object is (for its alarm, which no call names). Once they have moved, D1
 * is not asked again. `pending`: copied here, not yet deleted from D1.
 */
export class MovedInStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS moved_in (
      id INTEGER PRIMARY KEY CHECK (id = 0), pending INTEGER NOT NULL, domain TEXT, conv TEXT)`);
  }

  /** The object's conversation, once its first call named it. */
  conv(): QualifiedRef | undefined {
    const [row] = this.sql
      .exec<{ domain: string | null; conv: string | null }>('SELECT domain, conv FROM moved_in WHERE id = 0')
      .toArray();
    return row?.domain == null || row.conv == null ? undefined : { domain: row.domain, id: row.conv };
  }

  state(): 'no' | 'pending' | 'done' {
    const [row] = this.sql.exec<{ pending: number }>('SELECT pending FROM moved_in WHERE id = 0').toArray();
    return row === undefined ? 'no' : row.pending === 1 ? 'pending' : 'done';
  }

  mark(conv: QualifiedRef, pending: boolean): void {
    this.sql.exec(
      'INSERT OR REPLACE INTO moved_in (id, pending, domain, conv) VALUES (0, ?, ?, ?)',
      pending ? 1 : 0,
      conv.domain,
      conv.id,
    );
  }
}
