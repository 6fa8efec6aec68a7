import { sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** The drizzle view of the D1 schema; every table here has its migration in migrations/. */
export const federationRemotes = sqliteTable('federation_remotes', {
  domain: text('domain').primaryKey(),
  searchPolicy: text('search_policy', { enum: ['no_search', 'exact_handle_search', 'full_search'] }).notNull(),
  restriction: text('restriction', { enum: ['allow_all', 'restrict_by_team'] }).notNull(),
  restrictionTeams: text('restriction_teams', { mode: 'json' }).$type<string[]>().notNull().default([]),
});
