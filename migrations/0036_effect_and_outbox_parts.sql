-- Rows longer than D1's 2 MB (what other backends are told of a large MLS group's commit: its
-- commit, Welcome and members) keep their first part in their own row and the rest here, in order
-- (src/shared/db/split-text.ts). `parts` counts a row's parts after its own.
ALTER TABLE pending_effects ADD COLUMN parts INTEGER NOT NULL DEFAULT 0;
CREATE TABLE pending_effect_parts (
  id INTEGER NOT NULL,
  part INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (id, part)
) WITHOUT ROWID;

ALTER TABLE federation_outbox ADD COLUMN parts INTEGER NOT NULL DEFAULT 0;
CREATE TABLE federation_outbox_parts (
  seq INTEGER NOT NULL,
  part INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (seq, part)
) WITHOUT ROWID;
