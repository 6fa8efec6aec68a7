-- Accounts: users, the teams registration can create, cookies, one-time codes and the mail outbox.
-- Mirrors src/edge/db/schema.ts.
CREATE TABLE users (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  text_status TEXT,
  accent_id INTEGER NOT NULL DEFAULT 0,
  assets TEXT NOT NULL DEFAULT '[]',
  locale TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'suspended', 'deleted', 'ephemeral', 'pending-invitation')),
  activated INTEGER NOT NULL DEFAULT 0,
  -- the activated email as entered, and its lowercase key: one account per address
  email TEXT,
  email_key TEXT UNIQUE,
  email_unvalidated TEXT,
  handle TEXT UNIQUE,
  password TEXT,
  team TEXT,
  managed_by TEXT NOT NULL DEFAULT 'wire',
  supported_protocols TEXT NOT NULL DEFAULT '["proteus"]',
  user_type TEXT NOT NULL DEFAULT 'regular',
  sso_id TEXT,
  expires_at INTEGER,
  searchable INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL
);
CREATE INDEX users_team ON users (team);

CREATE TABLE teams (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  icon TEXT NOT NULL,
  icon_key TEXT,
  creator TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active',
  created_at INTEGER NOT NULL
);

CREATE TABLE team_members (
  team TEXT NOT NULL,
  user TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'partner')),
  invited_by TEXT,
  invited_at INTEGER,
  PRIMARY KEY (team, user)
);
CREATE INDEX team_members_user ON team_members (user);

-- zuid cookies: a signed token names (user, id); deleting the row revokes it.
CREATE TABLE cookies (
  user TEXT NOT NULL,
  id INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('persistent', 'session')),
  label TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  successor INTEGER,
  -- the client the cookie's access tokens are bound to (set by the first POST /access?client_id=)
  client TEXT,
  PRIMARY KEY (user, id)
);

-- One-time codes: email activation, password reset, second factor, account deletion.
CREATE TABLE codes (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  code TEXT NOT NULL,
  user TEXT,
  email TEXT,
  retries INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);

-- Mail the outbox sender keeps (local development and tests).
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  recipient TEXT NOT NULL,
  sender TEXT NOT NULL,
  subject TEXT NOT NULL,
  text_body TEXT NOT NULL,
  html_body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX mail_outbox_recipient ON mail_outbox (recipient, id);
