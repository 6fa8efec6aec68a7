import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { FederatedComponent } from '../federation/components.js';

/** Notifications for other backends, one row each, in queue order (`seq`). */
export const federationOutbox = sqliteTable('federation_outbox', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  domain: text('domain').notNull(),
  component: text('component').$type<FederatedComponent>().notNull(),
  rpc: text('rpc').notNull(),
  /** JSON: federation API version → payload. */
  bundle: text('bundle', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  /** ms since the epoch */
  queuedAt: integer('queued_at').notNull(),
});

/** A remote whose notifications wait for a retry. */
export const federationBackoff = sqliteTable('federation_backoff', {
  domain: text('domain').primaryKey(),
  attempts: integer('attempts').notNull(),
  /** ms since the epoch */
  nextAt: integer('next_at').notNull(),
});
