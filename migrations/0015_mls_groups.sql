-- galley: the MLS delivery service's state of each conversation's group. The Conversation object
-- orders commits; these rows are what it reads back after a restart and what other routes read.
-- Mirrors src/edge/db/schema.ts.

-- When the epoch last moved (ms since the epoch); null before the first commit.
ALTER TABLE conversations ADD COLUMN epoch_timestamp INTEGER;

-- The clients in a group, by leaf index of its ratchet tree. `removal_pending`: the client was
-- deleted (or its user left) and the backend proposed its removal; the next commit removes it.
CREATE TABLE mls_group_clients (
  group_id TEXT NOT NULL,
  leaf_index INTEGER NOT NULL,
  user_domain TEXT NOT NULL,
  user TEXT NOT NULL,
  client TEXT NOT NULL,
  removal_pending INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (group_id, leaf_index)
);
CREATE INDEX mls_group_clients_by_client ON mls_group_clients (user_domain, user, client);

-- The GroupInfo of the group's current epoch (the inner GroupInfo, base64), as its last commit brought it.
CREATE TABLE mls_group_infos (
  group_id TEXT PRIMARY KEY NOT NULL,
  group_info TEXT NOT NULL
);

-- Proposals of the current epoch; the next commit must reference every one.
CREATE TABLE mls_proposals (
  group_id TEXT NOT NULL,
  epoch INTEGER NOT NULL,
  -- ProposalRef, base64
  ref TEXT NOT NULL,
  -- 'backend' (a Remove the backend signed) or 'client'
  origin TEXT NOT NULL,
  -- what it does: {"remove": leafIndex} or {"add": {"user","domain","client"}}, JSON
  effect TEXT NOT NULL,
  -- the MLSMessage, base64 (re-signed for the next epoch when a commit leaves a backend Remove out)
  message TEXT NOT NULL,
  PRIMARY KEY (group_id, ref)
);
