// The size of an SQLite database from its files, without SQLite: Node 20 has none, and a backend
// stopped by a signal leaves its pages in the write-ahead log, not yet in the database file.
import { existsSync, readFileSync } from 'node:fs';

/**
 * The database's size in bytes (its page count times its page size) as its last committed
 * transaction left it: the "database size after commit" of the last commit frame of the WAL that
 * belongs to the log's current generation (its salts), else the page count in the file's header.
 */
export function sqliteBytes(path: string): number {
  const db = readFileSync(path);
  let pageSize = db.readUInt16BE(16);
  if (pageSize === 1) pageSize = 65536;
  let pages = db.readUInt32BE(28);
  const walPath = `${path}-wal`;
  if (existsSync(walPath)) {
    const wal = readFileSync(walPath);
    if (wal.length >= 32) {
      const framePage = wal.readUInt32BE(8);
      const [salt1, salt2] = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
      for (let at = 32; at + 24 + framePage <= wal.length; at += 24 + framePage) {
        if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
        const after = wal.readUInt32BE(at + 4);
        if (after !== 0) pages = after;
      }
    }
  }
  return pages * pageSize;
}
