import type { Consent } from '../../shared/accounts/material.js';

interface Row extends Record<string, SqlStorageValue> {
  type: number;
  value: number;
  source: string;
}

/** The user's latest answer per consent type (`/self/consent`), in the user's Account object. */
export class ConsentStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      'CREATE TABLE IF NOT EXISTS consents (type INTEGER PRIMARY KEY, value INTEGER NOT NULL, source TEXT NOT NULL)',
    );
  }

  all(): Consent[] {
    return this.sql
      .exec<Row>('SELECT type, value, source FROM consents ORDER BY type')
      .toArray()
      .map((r) => ({ type: r.type, value: r.value, source: r.source }));
  }

  set(c: Consent): void {
    this.sql.exec('INSERT OR REPLACE INTO consents (type, value, source) VALUES (?, ?, ?)', c.type, c.value, c.source);
  }

  forgetAll(): void {
    this.sql.exec('DELETE FROM consents');
  }
}
