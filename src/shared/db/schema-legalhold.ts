import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** A user's legal hold status as a team member; `no_consent` is stored as NULL. */
export type StoredLegalholdStatus = 'disabled' | 'pending' | 'enabled';

/** A team's external legal hold service. */
export const legalholdServices = sqliteTable('legalhold_services', {
  team: text('team').primaryKey(),
  baseUrl: text('base_url').notNull(),
  /** base64 SHA-256 of the key, as wire pins it */
  fingerprint: text('fingerprint').notNull(),
  authToken: text('auth_token').notNull(),
  publicKey: text('public_key').notNull(),
});

/** Prekeys of a requested legal hold device, kept until the user approves it. */
export const legalholdPendingPrekeys = sqliteTable(
  'legalhold_pending_prekeys',
  {
    user: text('user').notNull(),
    id: integer('id').notNull(),
    key: text('key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.user, t.id] })],
);
