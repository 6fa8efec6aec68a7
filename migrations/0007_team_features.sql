-- Per-team overrides of the team feature flags (galley featureFlags are the defaults).
-- Mirrors src/edge/db/schema.ts. A NULL column means "the server default".
CREATE TABLE team_features (
  team TEXT NOT NULL,
  name TEXT NOT NULL,
  status TEXT CHECK (status IN ('enabled', 'disabled')),
  lock_status TEXT CHECK (lock_status IN ('locked', 'unlocked')),
  config TEXT,
  PRIMARY KEY (team, name)
);
