-- Clients (devices) and their Proteus prekeys. Mirrors src/edge/db/schema.ts.
CREATE TABLE clients (
  user TEXT NOT NULL,
  id TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('permanent', 'temporary', 'legalhold')),
  class TEXT,
  label TEXT,
  model TEXT,
  cookie TEXT,
  capabilities TEXT NOT NULL DEFAULT '[]',
  mls_public_keys TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  last_active INTEGER,
  PRIMARY KEY (user, id)
);

-- Prekeys; id 65535 is the last-resort key, handed out but never consumed.
CREATE TABLE prekeys (
  user TEXT NOT NULL,
  client TEXT NOT NULL,
  id INTEGER NOT NULL,
  key TEXT NOT NULL,
  PRIMARY KEY (user, client, id)
);
