-- Connections between users: one row per direction, each holding its owner's view of the relation.
CREATE TABLE connections (
  from_user TEXT NOT NULL,
  to_domain TEXT NOT NULL,
  to_user TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('accepted', 'blocked', 'pending', 'ignored', 'sent', 'cancelled', 'missing-legalhold-consent')),
  conv_domain TEXT,
  conv_id TEXT,
  last_update INTEGER NOT NULL,
  PRIMARY KEY (from_user, to_domain, to_user)
);
CREATE INDEX connections_status ON connections (from_user, status);
