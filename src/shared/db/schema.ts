import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { StoredLegalholdStatus } from './schema-legalhold.js';

/** The drizzle view of the D1 schema; every table here has its migration in migrations/. */
export const federationRemotes = sqliteTable('federation_remotes', {
  domain: text('domain').primaryKey(),
  searchPolicy: text('search_policy', { enum: ['no_search', 'exact_handle_search', 'full_search'] }).notNull(),
  restriction: text('restriction', { enum: ['allow_all', 'restrict_by_team'] }).notNull(),
  restrictionTeams: text('restriction_teams', { mode: 'json' }).$type<string[]>().notNull().default([]),
});

export type UserStatus = 'active' | 'suspended' | 'deleted' | 'ephemeral' | 'pending-invitation';
export interface AssetRef {
  key: string;
  type: 'image';
  size?: 'preview' | 'complete';
}

export const users = sqliteTable('users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  textStatus: text('text_status'),
  accentId: integer('accent_id').notNull().default(0),
  assets: text('assets', { mode: 'json' }).$type<AssetRef[]>().notNull().default([]),
  locale: text('locale').notNull(),
  status: text('status').$type<UserStatus>().notNull(),
  activated: integer('activated', { mode: 'boolean' }).notNull().default(false),
  email: text('email'),
  emailKey: text('email_key').unique(),
  emailUnvalidated: text('email_unvalidated'),
  handle: text('handle').unique(),
  password: text('password'),
  team: text('team'),
  managedBy: text('managed_by', { enum: ['wire', 'scim'] })
    .notNull()
    .default('wire'),
  supportedProtocols: text('supported_protocols', { mode: 'json' })
    .$type<Array<'proteus' | 'mls'>>()
    .notNull()
    .default(['proteus']),
  userType: text('user_type', { enum: ['regular', 'app', 'bot'] })
    .notNull()
    .default('regular'),
  ssoId: text('sso_id', { mode: 'json' }).$type<unknown>(),
  expiresAt: integer('expires_at'),
  searchable: integer('searchable', { mode: 'boolean' }).notNull().default(true),
  conferenceCalling: text('conference_calling', { enum: ['enabled', 'disabled'] }),
  /** A bot's service (user_type 'bot'); null for everybody else. */
  serviceProvider: text('service_provider'),
  serviceId: text('service_id'),
  createdAt: integer('created_at').notNull(),
});

export const teams = sqliteTable('teams', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  icon: text('icon').notNull(),
  iconKey: text('icon_key'),
  splashScreen: text('splash_screen'),
  searchVisibility: text('search_visibility', { enum: ['standard', 'no-name-outside-team'] })
    .notNull()
    .default('standard'),
  creator: text('creator').notNull(),
  status: text('status').notNull().default('active'),
  createdAt: integer('created_at').notNull(),
});

export type TeamRole = 'owner' | 'admin' | 'member' | 'partner';

export const teamMembers = sqliteTable(
  'team_members',
  {
    team: text('team').notNull(),
    user: text('user').notNull(),
    role: text('role').$type<TeamRole>().notNull(),
    invitedBy: text('invited_by'),
    invitedAt: integer('invited_at'),
    /** NULL is no_consent */
    legalholdStatus: text('legalhold_status').$type<StoredLegalholdStatus>(),
  },
  (t) => [primaryKey({ columns: [t.team, t.user] })],
);

/** Pending invitations to join a team; the code is what the invitee presents. */
export const teamInvitations = sqliteTable('team_invitations', {
  id: text('id').primaryKey(),
  team: text('team').notNull(),
  email: text('email').notNull(),
  role: text('role').$type<TeamRole>().notNull(),
  name: text('name'),
  locale: text('locale'),
  code: text('code').notNull(),
  createdBy: text('created_by'),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
  /** The pending account a SCIM invitation claims for its invitee. */
  invitee: text('invitee'),
});

/**
 * galley's team queue: `team.member-join` events, ordered by `key` (the time in the v1 UUID id,
 * see shared/uuid-v1.ts), which is also what the TTL cut-off compares.
 */
export const teamNotifications = sqliteTable(
  'team_notifications',
  {
    team: text('team').notNull(),
    key: text('key').notNull(),
    id: text('id').notNull(),
    /** JSON array of events */
    payload: text('payload', { mode: 'json' }).$type<Array<Record<string, unknown>>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.team, t.key, t.id] })],
);

/** Per-team overrides of team features; NULL columns fall back to the server default. */
export const teamFeatures = sqliteTable(
  'team_features',
  {
    team: text('team').notNull(),
    name: text('name').notNull(),
    status: text('status', { enum: ['enabled', 'disabled'] }),
    lockStatus: text('lock_status', { enum: ['locked', 'unlocked'] }),
    config: text('config', { mode: 'json' }).$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.team, t.name] })],
);

export const cookies = sqliteTable(
  'cookies',
  {
    user: text('user').notNull(),
    id: integer('id').notNull(),
    kind: text('kind', { enum: ['persistent', 'session'] }).notNull(),
    label: text('label'),
    /** ms since the epoch */
    createdAt: integer('created_at').notNull(),
    /** s since the epoch */
    expiresAt: integer('expires_at').notNull(),
    successor: integer('successor'),
    client: text('client'),
    /** Held by a legal hold service: its access tokens reach only what the device needs. */
    legalhold: integer('legalhold', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.user, t.id] })],
);

export const codes = sqliteTable(
  'codes',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    code: text('code').notNull(),
    user: text('user'),
    email: text('email'),
    retries: integer('retries').notNull().default(0),
    /** ms since the epoch */
    expiresAt: integer('expires_at').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);

export const mailOutbox = sqliteTable('mail_outbox', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  recipient: text('recipient').notNull(),
  sender: text('sender').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body').notNull(),
  createdAt: integer('created_at').notNull(),
});

export type ClientType = 'permanent' | 'temporary' | 'legalhold';
export type ClientClass = 'phone' | 'tablet' | 'desktop' | 'legalhold';

export const clients = sqliteTable(
  'clients',
  {
    user: text('user').notNull(),
    id: text('id').notNull(),
    type: text('type').$type<ClientType>().notNull(),
    class: text('class').$type<ClientClass>(),
    label: text('label'),
    model: text('model'),
    cookie: text('cookie'),
    capabilities: text('capabilities', { mode: 'json' }).$type<string[]>().notNull().default([]),
    mlsPublicKeys: text('mls_public_keys', { mode: 'json' }).$type<Record<string, string>>().notNull().default({}),
    createdAt: integer('created_at').notNull(),
    lastActive: integer('last_active'),
  },
  (t) => [primaryKey({ columns: [t.user, t.id] })],
);

export const mlsKeyPackages = sqliteTable('mls_key_packages', {
  ref: text('ref').primaryKey(),
  user: text('user').notNull(),
  client: text('client').notNull(),
  cipherSuite: integer('cipher_suite').notNull(),
  data: text('data').notNull(),
  notAfter: integer('not_after').notNull(),
});

export const prekeys = sqliteTable(
  'prekeys',
  {
    user: text('user').notNull(),
    client: text('client').notNull(),
    id: integer('id').notNull(),
    key: text('key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.user, t.client, t.id] })],
);

export const userProperties = sqliteTable(
  'user_properties',
  {
    user: text('user').notNull(),
    key: text('key').notNull(),
    /** The JSON value as the client sent it */
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.user, t.key] })],
);

/** A user's latest answer per consent type (`/self/consent`). */
export const userConsents = sqliteTable(
  'user_consents',
  {
    user: text('user').notNull(),
    type: integer('type').notNull(),
    value: integer('value').notNull(),
    source: text('source').notNull(),
  },
  (t) => [primaryKey({ columns: [t.user, t.type] })],
);

export type Relation =
  | 'accepted'
  | 'blocked'
  | 'pending'
  | 'ignored'
  | 'sent'
  | 'cancelled'
  | 'missing-legalhold-consent';

/** Connections as versions before the Account object kept them; they move in (shared/accounts/legacy-account-store.ts). */
export const connections = sqliteTable(
  'connections',
  {
    fromUser: text('from_user').notNull(),
    toDomain: text('to_domain').notNull(),
    toUser: text('to_user').notNull(),
    status: text('status').$type<Relation>().notNull(),
    convDomain: text('conv_domain'),
    convId: text('conv_id'),
    /** ms since the epoch */
    lastUpdate: integer('last_update').notNull(),
    /** While legal hold blocks the connection: its status before (see legalhold/connection-blocks.ts). */
    statusBeforeLegalhold: text('status_before_legalhold').$type<Relation>(),
  },
  (t) => [primaryKey({ columns: [t.fromUser, t.toDomain, t.toUser] })],
);

/** The names users are found by, each held by one user (migrations/0035; brig/users/user-names.ts). */
export const userNames = sqliteTable('user_names', {
  name: text('name').primaryKey(),
  user: text('user').notNull(),
  at: integer('at').notNull(),
});

/** Which local users have a connection to a user of `domain` (their sides are in their Account objects). */
export const remoteConnections = sqliteTable(
  'remote_connections',
  {
    domain: text('domain').notNull(),
    user: text('user').notNull(),
  },
  (t) => [primaryKey({ columns: [t.domain, t.user] })],
);

export type ConvType = 0 | 1 | 2 | 3;
export type ConvProtocol = 'proteus' | 'mls' | 'mixed';

export const conversations = sqliteTable(
  'conversations',
  {
    domain: text('domain').notNull(),
    id: text('id').notNull(),
    type: integer('type').$type<ConvType>().notNull(),
    creator: text('creator'),
    name: text('name'),
    access: text('access', { mode: 'json' }).$type<string[]>().notNull(),
    accessRole: text('access_role', { mode: 'json' }).$type<string[]>().notNull(),
    team: text('team'),
    messageTimer: integer('message_timer'),
    receiptMode: integer('receipt_mode'),
    protocol: text('protocol').$type<ConvProtocol>().notNull(),
    groupId: text('group_id'),
    epoch: integer('epoch').notNull().default(0),
    cipherSuite: integer('cipher_suite'),
    epochTimestamp: integer('epoch_timestamp'),
    cellsState: text('cells_state', { enum: ['disabled', 'pending', 'ready'] }).notNull(),
    groupConvType: text('group_conv_type'),
    addPermission: text('add_permission'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.domain, t.id] })],
);

export const conversationMembers = sqliteTable(
  'conversation_members',
  {
    convDomain: text('conv_domain').notNull(),
    convId: text('conv_id').notNull(),
    userDomain: text('user_domain').notNull(),
    userId: text('user_id').notNull(),
    role: text('role').notNull(),
    otrMutedStatus: integer('otr_muted_status'),
    otrMutedRef: text('otr_muted_ref'),
    otrArchived: integer('otr_archived', { mode: 'boolean' }).notNull().default(false),
    otrArchivedRef: text('otr_archived_ref'),
    hidden: integer('hidden', { mode: 'boolean' }).notNull().default(false),
    hiddenRef: text('hidden_ref'),
    joinedAt: integer('joined_at').notNull(),
    /** A bot member's service; null for users. */
    serviceProvider: text('service_provider'),
    serviceId: text('service_id'),
  },
  (t) => [primaryKey({ columns: [t.convDomain, t.convId, t.userDomain, t.userId] })],
);

/** galley's indexes across conversations (migration 0033): a team's conversations. */
export const teamConversations = sqliteTable(
  'team_conversations',
  {
    convDomain: text('conv_domain').notNull(),
    convId: text('conv_id').notNull(),
    team: text('team').notNull(),
  },
  (t) => [primaryKey({ columns: [t.convDomain, t.convId] })],
);

/** Members of a domain other than their conversation's (whom the end of federation concerns). */
export const foreignMembers = sqliteTable(
  'foreign_members',
  {
    convDomain: text('conv_domain').notNull(),
    convId: text('conv_id').notNull(),
    userDomain: text('user_domain').notNull(),
    userId: text('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.convDomain, t.convId, t.userDomain, t.userId] })],
);

/** The copies this backend keeps of conversations other backends own. */
export const conversationCopies = sqliteTable(
  'conversation_copies',
  {
    domain: text('domain').notNull(),
    id: text('id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.domain, t.id] })],
);

/** Bots by their service. */
export const serviceBots = sqliteTable(
  'service_bots',
  {
    convDomain: text('conv_domain').notNull(),
    convId: text('conv_id').notNull(),
    bot: text('bot').notNull(),
    provider: text('provider').notNull(),
    service: text('service').notNull(),
  },
  (t) => [primaryKey({ columns: [t.convDomain, t.convId, t.bot] })],
);

export const conversationCodes = sqliteTable(
  'conversation_codes',
  {
    convDomain: text('conv_domain').notNull(),
    convId: text('conv_id').notNull(),
    key: text('key').notNull().unique(),
    code: text('code').notNull(),
    password: text('password'),
    /** ms since the epoch */
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.convDomain, t.convId] })],
);

/** cargohold: asset metadata; the bytes live in object storage under the same key. */
export const assets = sqliteTable('assets', {
  key: text('key').primaryKey(),
  owner: text('owner').notNull(),
  /** null: public, downloadable without a token */
  token: text('token'),
  retention: integer('retention').notNull(),
  size: integer('size').notNull(),
  createdAt: integer('created_at').notNull(),
  /** ms since the epoch; null: kept until deleted */
  expiresAt: integer('expires_at'),
});

export interface RichField {
  type: string;
  value: string;
}

/** brig: rich info (profile fields set by provisioning), one list per user. */
export const richInfo = sqliteTable('rich_info', {
  user: text('user').primaryKey(),
  fields: text('fields', { mode: 'json' }).$type<RichField[]>().notNull(),
});

export const mlsGroupClients = sqliteTable(
  'mls_group_clients',
  {
    groupId: text('group_id').notNull(),
    leafIndex: integer('leaf_index').notNull(),
    userDomain: text('user_domain').notNull(),
    user: text('user').notNull(),
    client: text('client').notNull(),
    removalPending: integer('removal_pending', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.leafIndex] })],
);

export const mlsGroupInfos = sqliteTable('mls_group_infos', {
  groupId: text('group_id').primaryKey(),
  groupInfo: text('group_info').notNull(),
  /** The group's last commit (the Conversation object's LastCommit, JSON), so that a retry gets its answer. */
  lastCommit: text('last_commit'),
});

export const mlsProposals = sqliteTable(
  'mls_proposals',
  {
    groupId: text('group_id').notNull(),
    epoch: integer('epoch').notNull(),
    ref: text('ref').notNull(),
    origin: text('origin', { enum: ['backend', 'client'] }).notNull(),
    effect: text('effect').notNull(),
    message: text('message').notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.ref] })],
);

export const mlsSubconversations = sqliteTable(
  'mls_subconversations',
  {
    convDomain: text('conv_domain').notNull(),
    convId: text('conv_id').notNull(),
    subconv: text('subconv').notNull(),
    groupId: text('group_id').notNull(),
    epoch: integer('epoch').notNull().default(0),
    epochTimestamp: integer('epoch_timestamp'),
    cipherSuite: integer('cipher_suite'),
  },
  (t) => [primaryKey({ columns: [t.convDomain, t.convId, t.subconv] })],
);
