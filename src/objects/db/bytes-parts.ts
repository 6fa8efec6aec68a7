/** Bytes per part: a row holds at most 2 MB. */
const PART_BYTES = 1_000_000;

/**
 * Byte strings by the key of what they belong to (`owner`), in parts of at most PART_BYTES: one
 * table of `(owner, part, bytes)`, in part order. A large MLS group's GroupInfo (megabytes with
 * its ratchet tree) is kept so, as the bytes it came as: no base64 to make, none to read back.
 */
export class BytesParts {
  constructor(
    private readonly sql: SqlStorage,
    private readonly table: string,
  ) {
    sql.exec(`CREATE TABLE IF NOT EXISTS ${table} (
      owner TEXT NOT NULL,
      part INTEGER NOT NULL,
      bytes BLOB NOT NULL,
      PRIMARY KEY (owner, part)
    ) WITHOUT ROWID`);
  }

  /** Keeps `bytes` in place of what the owner had. */
  replace(owner: string, bytes: Uint8Array): void {
    this.drop(owner);
    let part = 0;
    do {
      const at = part * PART_BYTES;
      // slice: a copy of its own, whose buffer is the part (a subarray's is the whole).
      const chunk = bytes.slice(at, at + PART_BYTES).buffer;
      this.sql.exec(`INSERT INTO ${this.table} (owner, part, bytes) VALUES (?, ?, ?)`, owner, part, chunk);
      part += 1;
    } while (part * PART_BYTES < bytes.length);
  }

  /** The owner's bytes, their parts joined; undefined when it has none. */
  joined(owner: string): Uint8Array | undefined {
    const parts = this.sql
      .exec<{ bytes: ArrayBuffer }>(`SELECT bytes FROM ${this.table} WHERE owner = ? ORDER BY part`, owner)
      .toArray()
      .map((r) => new Uint8Array(r.bytes));
    if (parts.length <= 1) return parts[0];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  drop(owner: string): void {
    this.sql.exec(`DELETE FROM ${this.table} WHERE owner = ?`, owner);
  }
}
