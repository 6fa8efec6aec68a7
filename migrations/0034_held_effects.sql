-- Conversations whose object may hold effects for the edge that did not reach pending_effects yet
-- (a crash between a commit's transaction in the object and their hand-over): written before the
-- commit, removed after the hand-over. The sweep wakes these objects before it carries out what is
-- pending (issue 44, step 1).
CREATE TABLE held_effects (
  conv_domain TEXT NOT NULL,
  conv_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (conv_domain, conv_id)
);
