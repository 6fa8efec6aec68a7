-- Each user's side of a connection moves into their Account object (issue 44); D1 keeps only which
-- local users have a connection to a user of another backend, for when federation with it ends.
-- A connection's other side is remote when no local account has its id.
CREATE TABLE remote_connections (
  domain TEXT NOT NULL,
  user TEXT NOT NULL,
  PRIMARY KEY (domain, user)
);
INSERT OR IGNORE INTO remote_connections (domain, user)
  SELECT DISTINCT c.to_domain, c.from_user FROM connections c
  WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = c.to_user);
