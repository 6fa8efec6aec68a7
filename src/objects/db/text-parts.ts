/**
 * Texts in parts, by the key of the row they belong to (`owner`): one table of `(owner, part,
 * text)`, in part order. A row may keep a text's first part itself and only the rest here.
 */
export class TextParts {
  constructor(
    private readonly sql: SqlStorage,
    private readonly table: string,
    ownerType: 'INTEGER' | 'TEXT',
  ) {
    sql.exec(`CREATE TABLE IF NOT EXISTS ${table} (
      owner ${ownerType} NOT NULL,
      part INTEGER NOT NULL,
      text TEXT NOT NULL,
      PRIMARY KEY (owner, part)
    ) WITHOUT ROWID`);
  }

  /** Keeps a new text's parts (those after its first, where the owner's row keeps that one). */
  put(owner: SqlStorageValue, parts: readonly string[]): void {
    for (let i = 0; i < parts.length; i++)
      this.sql.exec(`INSERT INTO ${this.table} (owner, part, text) VALUES (?, ?, ?)`, owner, i + 1, parts[i]!);
  }

  /** Keeps a text's parts in place of those it had. */
  replace(owner: SqlStorageValue, parts: readonly string[]): void {
    this.drop(owner);
    this.put(owner, parts);
  }

  /** The owner's parts, joined. */
  joined(owner: SqlStorageValue): string {
    return this.sql
      .exec<{ text: string }>(`SELECT text FROM ${this.table} WHERE owner = ? ORDER BY part`, owner)
      .toArray()
      .map((r) => r.text)
      .join('');
  }

  drop(owner: SqlStorageValue): void {
    this.sql.exec(`DELETE FROM ${this.table} WHERE owner = ?`, owner);
  }

  /** Drops the parts of owners below `owner` (rows dropped by a range of their keys). */
  dropBelow(owner: number): void {
    this.sql.exec(`DELETE FROM ${this.table} WHERE owner < ?`, owner);
  }

  /** Drops the parts of owners from `from` to before `to`. */
  dropRange(from: number, to: number): void {
    this.sql.exec(`DELETE FROM ${this.table} WHERE owner >= ? AND owner < ?`, from, to);
  }
}
