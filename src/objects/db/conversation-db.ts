import { drizzle, type DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';

/**
 * The conversation's tables in its object's SQLite, through drizzle (the schema D1 had,
 * shared/db/schema.ts); `$client` is the object's storage, for the tables drizzle does not know.
 */
export type ConversationDb = DrizzleSqliteDODatabase & { $client: DurableObjectStorage };

/**
 * A query built once per object and run again with new placeholder values: building a drizzle
 * query costs more CPU than running it, and every commit reads its conversation's row.
 */
export function preparedOnce<T>(build: (db: ConversationDb) => T): (db: ConversationDb) => T {
  const prepared = new WeakMap<ConversationDb, T>();
  return (db) => {
    let query = prepared.get(db);
    if (query === undefined) prepared.set(db, (query = build(db)));
    return query;
  };
}

/** A write a store prepared, for the caller's transaction. */
export interface Write {
  run(): unknown;
}

/** Runs writes as one transaction of the object's storage, with `also` (the outbox's record) inside it. */
export function writeTogether(
  storage: DurableObjectStorage,
  writes: readonly Write[],
  also: () => void = () => {},
): void {
  storage.transactionSync(() => {
    for (const w of writes) w.run();
    also();
  });
}

/**
 * The tables of one conversation in its object, as D1 held every conversation's (migrations 0006,
 * 0015, 0016, 0027, 0031): its row, its members, its MLS groups (its own and its subconversations').
 */
const TABLES = [
  `CREATE TABLE IF NOT EXISTS conversations (
    domain TEXT NOT NULL, id TEXT NOT NULL, type INTEGER NOT NULL, creator TEXT, name TEXT,
    access TEXT NOT NULL DEFAULT '["invite"]',
    access_role TEXT NOT NULL DEFAULT '["team_member","non_team_member","service"]',
    team TEXT, message_timer INTEGER, receipt_mode INTEGER, protocol TEXT NOT NULL DEFAULT 'proteus',
    group_id TEXT, epoch INTEGER NOT NULL DEFAULT 0, cipher_suite INTEGER, epoch_timestamp INTEGER,
    cells_state TEXT NOT NULL DEFAULT 'disabled', group_conv_type TEXT, add_permission TEXT,
    created_at INTEGER NOT NULL, PRIMARY KEY (domain, id))`,
  `CREATE TABLE IF NOT EXISTS conversation_members (
    conv_domain TEXT NOT NULL, conv_id TEXT NOT NULL, user_domain TEXT NOT NULL, user_id TEXT NOT NULL,
    role TEXT NOT NULL DEFAULT 'wire_admin', otr_muted_status INTEGER, otr_muted_ref TEXT,
    otr_archived INTEGER NOT NULL DEFAULT 0, otr_archived_ref TEXT, hidden INTEGER NOT NULL DEFAULT 0,
    hidden_ref TEXT, joined_at INTEGER NOT NULL, service_provider TEXT, service_id TEXT,
    PRIMARY KEY (conv_domain, conv_id, user_domain, user_id))`,
  `CREATE TABLE IF NOT EXISTS mls_group_clients (
    group_id TEXT NOT NULL, leaf_index INTEGER NOT NULL, user_domain TEXT NOT NULL, user TEXT NOT NULL,
    client TEXT NOT NULL, removal_pending INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (group_id, leaf_index))`,
  `CREATE TABLE IF NOT EXISTS mls_group_infos (
    group_id TEXT PRIMARY KEY NOT NULL, group_info TEXT NOT NULL, last_commit TEXT)`,
  `CREATE TABLE IF NOT EXISTS mls_proposals (
    group_id TEXT NOT NULL, epoch INTEGER NOT NULL, ref TEXT NOT NULL, origin TEXT NOT NULL,
    effect TEXT NOT NULL, message TEXT NOT NULL, PRIMARY KEY (group_id, ref))`,
  `CREATE TABLE IF NOT EXISTS mls_subconversations (
    conv_domain TEXT NOT NULL, conv_id TEXT NOT NULL, subconv TEXT NOT NULL, group_id TEXT NOT NULL,
    epoch INTEGER NOT NULL DEFAULT 0, epoch_timestamp INTEGER, cipher_suite INTEGER,
    PRIMARY KEY (conv_domain, conv_id, subconv))`,
];

/** The conversation's tables (made on the object's first start), through drizzle. */
export function conversationDb(storage: DurableObjectStorage): ConversationDb {
  for (const ddl of TABLES) storage.sql.exec(ddl);
  return drizzle(storage);
}
