-- What a committed change must still cause (its events, the notices to conversation objects, other
-- backends, bots), written in the change's own batch and removed once it all happened: after a
-- crash the sweep (src/edge/effects/) carries out what is left. `effects` is a JSON array of
-- {kind, args}; created_at in ms.
CREATE TABLE pending_effects (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  created_at INTEGER NOT NULL,
  effects TEXT NOT NULL
);
