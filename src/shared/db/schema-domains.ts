import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export type DomainRedirectTag = 'none' | 'locked' | 'sso' | 'backend' | 'no-registration' | 'pre-authorized';
export type TeamInviteTag = 'allowed' | 'not-allowed' | 'team';

/** A domain's registration: where its users are sent, who may invite them, who owns it. */
export const domainRegistrations = sqliteTable('domain_registrations', {
  domain: text('domain').primaryKey(),
  redirect: text('redirect').$type<DomainRedirectTag>().notNull(),
  ssoCode: text('sso_code'),
  backendUrl: text('backend_url'),
  webappUrl: text('webapp_url'),
  teamInvite: text('team_invite').$type<TeamInviteTag>().notNull(),
  inviteTeam: text('invite_team'),
  dnsToken: text('dns_token'),
  /** SHA-256 of the domain ownership token, hex. */
  ownershipHash: text('ownership_hash'),
  authorizedTeam: text('authorized_team'),
});

/** A DNS challenge: the TXT record `wire-domain.<domain>` must hold `dnsToken`. */
export const domainChallenges = sqliteTable('domain_challenges', {
  id: text('id').primaryKey(),
  domain: text('domain').notNull(),
  /** SHA-256 of the challenge token, hex. */
  tokenHash: text('token_hash').notNull(),
  dnsToken: text('dns_token').notNull(),
  /** ms since the epoch */
  expiresAt: integer('expires_at').notNull(),
});
