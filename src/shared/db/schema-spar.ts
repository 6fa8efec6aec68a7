import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** A team's SAML identity provider, as its metadata describes it. */
export const sparIdps = sqliteTable('spar_idps', {
  id: text('id').primaryKey(),
  team: text('team').notNull(),
  issuer: text('issuer').notNull(),
  requestUri: text('request_uri').notNull(),
  /** JSON: the metadata's signing `ds:KeyInfo` elements. */
  certs: text('certs', { mode: 'json' }).$type<string[]>().notNull(),
  /** 1 (one issuer per instance, `/sso/finalize-login`) or 2 (per team, `/sso/finalize-login/{team}`). */
  apiVersion: integer('api_version').$type<1 | 2>().notNull(),
  handle: text('handle').notNull(),
  oldIssuers: text('old_issuers', { mode: 'json' }).$type<string[]>().notNull(),
  replacedBy: text('replaced_by'),
  /** The metadata XML as uploaded. */
  metadata: text('metadata').notNull(),
  createdAt: integer('created_at').notNull(),
});

export const sparSamlUsers = sqliteTable(
  'spar_saml_users',
  {
    issuer: text('issuer').notNull(),
    nameId: text('name_id').notNull(),
    user: text('user').notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.nameId] })],
);

export const sparScimTokens = sqliteTable('spar_scim_tokens', {
  id: text('id').primaryKey(),
  team: text('team').notNull(),
  /** `sha512:` and the base64 SHA-512 of the secret. */
  hash: text('hash').notNull().unique(),
  idp: text('idp'),
  description: text('description').notNull(),
  name: text('name').notNull(),
  createdAt: integer('created_at').notNull(),
});

/** How the verdict of a sign-in is shown: a page for the web app, or redirects for the mobile apps. */
export type VerdictFormat = { kind: 'web' } | { kind: 'mobile'; success: string; error: string };

export const sparAuthnRequests = sqliteTable('spar_authn_requests', {
  id: text('id').primaryKey(),
  issuer: text('issuer').notNull(),
  verdictFormat: text('verdict_format', { mode: 'json' }).$type<VerdictFormat>().notNull(),
  expiresAt: integer('expires_at').notNull(),
  /** Answered already. */
  spent: integer('spent', { mode: 'boolean' }).notNull().default(false),
});

export const sparAssertions = sqliteTable('spar_assertions', {
  id: text('id').primaryKey(),
  expiresAt: integer('expires_at').notNull(),
});

/** Users a team's SCIM client provisioned: the externalId it knows them by, and its times. */
export const sparScimUsers = sqliteTable('spar_scim_users', {
  user: text('user').primaryKey(),
  team: text('team').notNull(),
  externalId: text('external_id').notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/** Instance-wide settings (`default_sso_code`). */
export const sparSettings = sqliteTable('spar_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
