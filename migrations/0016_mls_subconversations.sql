-- galley: MLS subconversations (conference calls): groups of their own under a conversation,
-- created by their first commit. Their clients, group info and proposals live in the tables of
-- 0015, under the subconversation's group id. Mirrors src/edge/db/schema.ts.
CREATE TABLE mls_subconversations (
  conv_domain TEXT NOT NULL,
  conv_id TEXT NOT NULL,
  subconv TEXT NOT NULL,
  -- base64; a reset moves it to the next generation
  group_id TEXT NOT NULL,
  epoch INTEGER NOT NULL DEFAULT 0,
  -- ms since the epoch, when the epoch last moved
  epoch_timestamp INTEGER,
  cipher_suite INTEGER,
  PRIMARY KEY (conv_domain, conv_id, subconv)
);
