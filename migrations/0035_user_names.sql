-- The names a user is found by, an email's key ('e:' || key) and a handle ('h:' || handle), each
-- held by one user: what keeps them unique once users live in several partitions (issue 44). A
-- row is a claim, made before the user's row takes the name and dropped after the row gives it
-- up; the user's row decides (a lookup checks it), and a claim it does not confirm is free once a
-- minute old (a crash between the two writes). A name lives in the partition of its own slot.
CREATE TABLE user_names (
  name TEXT PRIMARY KEY NOT NULL,
  user TEXT NOT NULL,
  -- when claimed (ms); 0 for the names of users made before this table
  at INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO user_names (name, user, at) SELECT 'e:' || email_key, id, 0 FROM users WHERE email_key IS NOT NULL;
INSERT INTO user_names (name, user, at) SELECT 'h:' || handle, id, 0 FROM users WHERE handle IS NOT NULL;
