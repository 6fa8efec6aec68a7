import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { FederatedComponent } from '../federation/components.js';

/** Notifications for other backends, one row each, in queue order (`seq`). */
export const federationOutbox = sqliteTable('federation_outbox', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  domain: text('domain').notNull(),
  component: text('component').$type<FederatedComponent>().notNull(),
  rpc: text('rpc').notNull(),
  /** JSON: federation API version → payload; its first part when longer than a row (`parts` more). */
  bundle: text('bundle').notNull(),
  /** ms since the epoch */
  queuedAt: integer('queued_at').notNull(),
  parts: integer('parts').notNull().default(0),
});

/** The rest of a notification's bundle longer than a row, in order after the row's own part. */
export const federationOutboxParts = sqliteTable(
  'federation_outbox_parts',
  {
    seq: integer('seq').notNull(),
    part: integer('part').notNull(),
    text: text('text').notNull(),
  },
  (t) => [primaryKey({ columns: [t.seq, t.part] })],
);

/** A remote whose notifications wait for a retry. */
export const federationBackoff = sqliteTable('federation_backoff', {
  domain: text('domain').primaryKey(),
  attempts: integer('attempts').notNull(),
  /** ms since the epoch */
  nextAt: integer('next_at').notNull(),
});
