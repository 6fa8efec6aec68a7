-- Team data the team API sets, and invitations to join a team.
-- Mirrors src/edge/db/schema.ts.
ALTER TABLE teams ADD COLUMN splash_screen TEXT;

CREATE TABLE team_invitations (
  id TEXT PRIMARY KEY NOT NULL,
  team TEXT NOT NULL,
  email TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'partner')),
  name TEXT,
  locale TEXT,
  code TEXT NOT NULL UNIQUE,
  created_by TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX team_invitations_team ON team_invitations (team, created_at);
CREATE UNIQUE INDEX team_invitations_email ON team_invitations (team, email);
