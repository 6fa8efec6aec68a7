-- Each user's latest answer per consent type (GET/PUT /self/consent): 1 terms of use, 2 marketing;
-- value 0 declined, 1 given; source is the client that asked (e.g. "Webapp 2024.01.01").
CREATE TABLE user_consents (
  user TEXT NOT NULL,
  type INTEGER NOT NULL,
  value INTEGER NOT NULL,
  source TEXT NOT NULL,
  PRIMARY KEY (user, type)
) WITHOUT ROWID;
