// `mls_rosters`: the groups whose notification objects keep their roster (see RosterAddress), in
// the Conversation object's own SQLite; this store is the table's one owner.
import type { ConversationDb, Write } from '../../db/conversation-db.js';

const made = new WeakSet<ConversationDb>();

function sql(db: ConversationDb): SqlStorage {
  const s = db.$client.sql;
  if (!made.has(db)) {
    s.exec('CREATE TABLE IF NOT EXISTS mls_rosters (group_id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID');
    made.add(db);
  }
  return s;
}

export const rosterKeptStore = {
  /** Whether the objects holding the group's clients keep its roster: its messages were sent with one. */
  kept(db: ConversationDb, groupId: string): boolean {
    return sql(db).exec('SELECT 1 FROM mls_rosters WHERE group_id = ?', groupId).toArray().length > 0;
  },

  /** The write saying they do, made with the message that seeds it. */
  keep(db: ConversationDb, groupId: string): Write {
    return { run: () => sql(db).exec('INSERT OR IGNORE INTO mls_rosters (group_id) VALUES (?)', groupId) };
  },

  /** The group is gone (reset or deleted): a group id is never used again. */
  forget(db: ConversationDb, groupId: string): Write {
    return { run: () => sql(db).exec('DELETE FROM mls_rosters WHERE group_id = ?', groupId) };
  },
};
