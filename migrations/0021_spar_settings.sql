-- spar's instance-wide settings: the default SSO code (an IdP id) the apps offer on their login page.
CREATE TABLE spar_settings (
  key TEXT PRIMARY KEY NOT NULL,
  value TEXT NOT NULL
) WITHOUT ROWID;
