-- Service providers, their services (bots' integrations), and which services each team allows.
CREATE TABLE providers (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  -- set once the address is activated; unique among providers
  email TEXT UNIQUE,
  -- an address waiting for its activation code
  pending_email TEXT,
  url TEXT NOT NULL,
  description TEXT NOT NULL,
  password TEXT NOT NULL,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE services (
  id TEXT PRIMARY KEY NOT NULL,
  provider TEXT NOT NULL,
  name TEXT NOT NULL,
  summary TEXT NOT NULL,
  description TEXT NOT NULL,
  base_url TEXT NOT NULL,
  -- JSON: the bearer tokens the service accepts (the first is used)
  auth_tokens TEXT NOT NULL,
  -- JSON: [{pem, size, fingerprint}], the keys its TLS may present
  public_keys TEXT NOT NULL,
  -- JSON: user assets
  assets TEXT NOT NULL,
  -- JSON: sorted tags
  tags TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX services_by_provider ON services (provider);

CREATE TABLE service_whitelist (
  team TEXT NOT NULL,
  provider TEXT NOT NULL,
  service TEXT NOT NULL,
  PRIMARY KEY (team, provider, service)
) WITHOUT ROWID;
CREATE INDEX service_whitelist_by_service ON service_whitelist (provider, service);
