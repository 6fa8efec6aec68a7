import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** A service provider's account. */
export const providers = sqliteTable('providers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Set once activated; unique among providers. */
  email: text('email'),
  /** An address waiting for its activation code. */
  pendingEmail: text('pending_email'),
  url: text('url').notNull(),
  description: text('description').notNull(),
  password: text('password').notNull(),
  /** ms since the epoch */
  createdAt: integer('created_at').notNull(),
});

/** A key a service's TLS may present: its PEM, size in bits and wire's fingerprint of it. */
export interface ServiceKeyRow {
  pem: string;
  size: number;
  fingerprint: string;
}

/** A provider's service (an integration bots are instances of). */
export const services = sqliteTable('services', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  name: text('name').notNull(),
  summary: text('summary').notNull(),
  description: text('description').notNull(),
  baseUrl: text('base_url').notNull(),
  authTokens: text('auth_tokens', { mode: 'json' }).$type<string[]>().notNull(),
  publicKeys: text('public_keys', { mode: 'json' }).$type<ServiceKeyRow[]>().notNull(),
  assets: text('assets', { mode: 'json' }).$type<unknown[]>().notNull(),
  tags: text('tags', { mode: 'json' }).$type<string[]>().notNull(),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
  /** ms since the epoch */
  createdAt: integer('created_at').notNull(),
});

/** The services a team allows in its conversations. */
export const serviceWhitelist = sqliteTable(
  'service_whitelist',
  {
    team: text('team').notNull(),
    provider: text('provider').notNull(),
    service: text('service').notNull(),
  },
  (t) => [primaryKey({ columns: [t.team, t.provider, t.service] })],
);
