// The size of an SQLite database from its files, without SQLite: Node 20 has none, and a backend
// stopped by a signal leaves its pages in the write-ahead log, not yet in the database file.
import { existsSync, readFileSync } from 'node:fs';

/**
 * The database's pages in use, in bytes, as its last committed transaction left it: the "database
 * size after commit" of the last commit frame of the WAL that belongs to the log's current
 * generation (its salts), else the page count in the file's header; less the pages on the free list
 * (rows deleted leave their pages there for reuse), read from the newest committed copy of page 1.
 */
export function sqliteBytes(path: string): number {
  const db = readFileSync(path);
  let pageSize = db.readUInt16BE(16);
  if (pageSize === 1) pageSize = 65536;
  let pages = db.readUInt32BE(28);
  let free = db.readUInt32BE(36);
  const walPath = `${path}-wal`;
  if (existsSync(walPath)) {
    const wal = readFileSync(walPath);
    if (wal.length >= 32) {
      const framePage = wal.readUInt32BE(8);
      const [salt1, salt2] = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
      let headerPage: number | undefined; // where the newest page 1 of the open transaction starts
      for (let at = 32; at + 24 + framePage <= wal.length; at += 24 + framePage) {
        if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
        if (wal.readUInt32BE(at) === 1) headerPage = at + 24;
        const after = wal.readUInt32BE(at + 4);
        if (after === 0) continue;
        pages = after;
        if (headerPage !== undefined) free = wal.readUInt32BE(headerPage + 36);
      }
    }
  }
  return (pages - free) * pageSize;
}
