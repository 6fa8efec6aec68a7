-- OAuth 2.0 (brig): the curated third-party applications, their authorization codes and refresh tokens.
CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  redirect_url TEXT NOT NULL,
  -- SHA-256 of the client secret (32 random bytes), hex
  secret_hash TEXT NOT NULL
) WITHOUT ROWID;

-- One-time authorization codes, kept by the SHA-256 of the code.
CREATE TABLE oauth_codes (
  code_hash TEXT PRIMARY KEY NOT NULL,
  client TEXT NOT NULL,
  user TEXT NOT NULL,
  scope TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;

-- A session of an application: its refresh token (rotated at each use).
CREATE TABLE oauth_refresh_tokens (
  id TEXT PRIMARY KEY NOT NULL,
  client TEXT NOT NULL,
  user TEXT NOT NULL,
  scope TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX oauth_refresh_tokens_by_user ON oauth_refresh_tokens (user, created_at);
