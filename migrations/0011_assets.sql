-- cargohold: metadata of assets whose bytes live in object storage under the same key.
-- Mirrors src/edge/db/schema.ts.
CREATE TABLE assets (
  key TEXT PRIMARY KEY NOT NULL,
  owner TEXT NOT NULL,
  -- null: public (no token needed to download)
  token TEXT,
  retention INTEGER NOT NULL,
  size INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  -- ms since the epoch; null: kept until deleted
  expires_at INTEGER
);
-- The sweep of expired assets reads this index only.
CREATE INDEX assets_expiry ON assets (expires_at) WHERE expires_at IS NOT NULL;
