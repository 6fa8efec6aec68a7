-- Conversations, owned by one backend (domain), and their members, local or remote.
-- Mirrors src/edge/db/schema.ts.
CREATE TABLE conversations (
  domain TEXT NOT NULL,
  id TEXT NOT NULL,
  -- 0 group, 1 self, 2 one-to-one, 3 connect (a pending 1:1)
  type INTEGER NOT NULL CHECK (type IN (0, 1, 2, 3)),
  creator TEXT,
  name TEXT,
  access TEXT NOT NULL DEFAULT '["invite"]',
  access_role TEXT NOT NULL DEFAULT '["team_member","non_team_member","service"]',
  team TEXT,
  message_timer INTEGER,
  receipt_mode INTEGER,
  protocol TEXT NOT NULL DEFAULT 'proteus' CHECK (protocol IN ('proteus', 'mls', 'mixed')),
  group_id TEXT,
  epoch INTEGER NOT NULL DEFAULT 0,
  cipher_suite INTEGER,
  cells_state TEXT NOT NULL DEFAULT 'disabled' CHECK (cells_state IN ('disabled', 'pending', 'ready')),
  group_conv_type TEXT,
  add_permission TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (domain, id)
);
CREATE INDEX conversations_team ON conversations (team);

CREATE TABLE conversation_members (
  conv_domain TEXT NOT NULL,
  conv_id TEXT NOT NULL,
  user_domain TEXT NOT NULL,
  user_id TEXT NOT NULL,
  role TEXT NOT NULL DEFAULT 'wire_admin',
  otr_muted_status INTEGER,
  otr_muted_ref TEXT,
  otr_archived INTEGER NOT NULL DEFAULT 0,
  otr_archived_ref TEXT,
  hidden INTEGER NOT NULL DEFAULT 0,
  hidden_ref TEXT,
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (conv_domain, conv_id, user_domain, user_id)
);
CREATE INDEX conversation_members_user ON conversation_members (user_domain, user_id, conv_domain, conv_id);

-- Guest links: one per conversation.
CREATE TABLE conversation_codes (
  conv_domain TEXT NOT NULL,
  conv_id TEXT NOT NULL,
  key TEXT NOT NULL UNIQUE,
  code TEXT NOT NULL,
  password TEXT,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (conv_domain, conv_id)
);
