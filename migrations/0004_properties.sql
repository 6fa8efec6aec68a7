-- User properties: client settings stored as JSON values under printable-ASCII keys.
CREATE TABLE user_properties (
  user TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (user, key)
);
