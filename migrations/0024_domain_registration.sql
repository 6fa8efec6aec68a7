-- Domain registration (enterprise login): what an email domain's owner decided for its users, and
-- the DNS challenges that prove ownership.
CREATE TABLE domain_registrations (
  domain TEXT PRIMARY KEY NOT NULL,
  -- none | locked | sso | backend | no-registration | pre-authorized
  redirect TEXT NOT NULL,
  sso_code TEXT,
  backend_url TEXT,
  webapp_url TEXT,
  -- allowed | not-allowed | team
  team_invite TEXT NOT NULL,
  invite_team TEXT,
  dns_token TEXT,
  -- SHA-256 of the domain ownership token, hex
  ownership_hash TEXT,
  authorized_team TEXT
) WITHOUT ROWID;
CREATE INDEX domain_registrations_by_team ON domain_registrations (authorized_team);

CREATE TABLE domain_challenges (
  id TEXT PRIMARY KEY NOT NULL,
  domain TEXT NOT NULL,
  -- SHA-256 of the challenge token, hex
  token_hash TEXT NOT NULL,
  dns_token TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
