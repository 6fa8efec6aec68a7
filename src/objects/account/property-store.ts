interface Row extends Record<string, SqlStorageValue> {
  key: string;
  value: string;
}

/**
 * The user's properties (`/properties`), in the user's Account object. Writes come as effects of
 * the change that announces them, which may be carried out late: each write carries its time, a
 * key keeps the time of its last write (a deleted key as a row without value), and a clearing
 * keeps its time, so an older write never undoes a newer one.
 */
export class PropertyStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec('CREATE TABLE IF NOT EXISTS properties (key TEXT PRIMARY KEY, value TEXT, at INTEGER NOT NULL)');
    sql.exec('CREATE TABLE IF NOT EXISTS properties_cleared (at INTEGER NOT NULL)');
  }

  get(key: string): string | undefined {
    const [row] = this.sql
      .exec<Row>('SELECT key, value FROM properties WHERE key = ? AND value IS NOT NULL', key)
      .toArray();
    return row?.value;
  }

  /** Keys and values, by key. */
  all(): Array<{ key: string; value: string }> {
    return this.sql
      .exec<Row>('SELECT key, value FROM properties WHERE value IS NOT NULL ORDER BY key')
      .toArray()
      .map((r) => ({ key: r.key, value: r.value }));
  }

  /** How many keys there are besides `key`. */
  countBesides(key: string): number {
    return this.sql.exec('SELECT 1 FROM properties WHERE value IS NOT NULL AND key <> ?', key).toArray().length;
  }

  /** Sets (or, with null, deletes) a key, unless it was written or cleared after `at`. */
  put(key: string, value: string | null, at: number): void {
    if (at < this.clearedAt()) return;
    this.sql.exec(
      `INSERT INTO properties (key, value, at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, at = excluded.at WHERE excluded.at >= properties.at`,
      key,
      value,
      at,
    );
  }

  /** Deletes every key written before `at`. */
  clear(at: number): void {
    this.sql.exec('DELETE FROM properties WHERE at <= ?', at);
    if (at > this.clearedAt()) {
      this.sql.exec('DELETE FROM properties_cleared');
      this.sql.exec('INSERT INTO properties_cleared (at) VALUES (?)', at);
    }
  }

  private clearedAt(): number {
    const [row] = this.sql.exec<{ at: number }>('SELECT at FROM properties_cleared').toArray();
    return row?.at ?? 0;
  }
}
