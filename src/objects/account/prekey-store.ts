import { LAST_RESORT_ID, type Prekey } from '../../shared/accounts/material.js';

/** The Proteus prekeys of a user's clients, in the user's Account object. */
export class PrekeyStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS prekeys (
      client TEXT NOT NULL, id INTEGER NOT NULL, key TEXT NOT NULL, PRIMARY KEY (client, id)) WITHOUT ROWID`);
  }

  /** Stores prekeys of a client; an id stored before is replaced. */
  put(client: string, keys: readonly Prekey[]): void {
    for (const k of keys)
      this.sql.exec('INSERT OR REPLACE INTO prekeys (client, id, key) VALUES (?, ?, ?)', client, k.id, k.key);
  }

  ids(client: string): number[] {
    return this.sql
      .exec<{ id: number }>('SELECT id FROM prekeys WHERE client = ? ORDER BY id', client)
      .toArray()
      .map((r) => r.id);
  }

  /** The clients holding prekeys (every client keeps its last-resort key), by id. */
  clients(): string[] {
    return this.sql
      .exec<{ client: string }>('SELECT DISTINCT client FROM prekeys ORDER BY client')
      .toArray()
      .map((r) => r.client);
  }

  /**
   * Hands out one prekey of the client: the lowest ordinary one, deleted (the object runs one call
   * at a time, so no two claims get it); when none is left, the last-resort key, which stays.
   */
  claim(client: string): Prekey | undefined {
    const [next] = this.sql
      .exec<{ id: number; key: string }>(
        'SELECT id, key FROM prekeys WHERE client = ? AND id <> ? ORDER BY id LIMIT 1',
        client,
        LAST_RESORT_ID,
      )
      .toArray();
    if (next !== undefined) {
      this.sql.exec('DELETE FROM prekeys WHERE client = ? AND id = ?', client, next.id);
      return { id: next.id, key: next.key };
    }
    const [last] = this.sql
      .exec<{ id: number; key: string }>(
        'SELECT id, key FROM prekeys WHERE client = ? AND id = ?',
        client,
        LAST_RESORT_ID,
      )
      .toArray();
    return last === undefined ? undefined : { id: last.id, key: last.key };
  }

  forgetClient(client: string): void {
    this.sql.exec('DELETE FROM prekeys WHERE client = ?', client);
  }

  forgetAll(): void {
    this.sql.exec('DELETE FROM prekeys');
  }
}
