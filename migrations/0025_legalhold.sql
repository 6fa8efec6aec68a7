-- Legal hold: a team's external legal hold service, each member's legal hold status, and the
-- prekeys a service handed out for a device the user has not approved yet.
CREATE TABLE legalhold_services (
  team TEXT PRIMARY KEY NOT NULL,
  base_url TEXT NOT NULL,
  -- base64 SHA-256 of the key, as wire pins it
  fingerprint TEXT NOT NULL,
  auth_token TEXT NOT NULL,
  public_key TEXT NOT NULL
) WITHOUT ROWID;

-- disabled | pending | enabled; NULL is no_consent
ALTER TABLE team_members ADD COLUMN legalhold_status TEXT;

CREATE TABLE legalhold_pending_prekeys (
  user TEXT NOT NULL,
  id INTEGER NOT NULL,
  key TEXT NOT NULL,
  PRIMARY KEY (user, id)
) WITHOUT ROWID;

-- Cookies a legal hold service holds for its device: their access tokens reach only what the
-- device needs.
ALTER TABLE cookies ADD COLUMN legalhold INTEGER NOT NULL DEFAULT 0;
