-- gundeck: each user's notification object (stream, queues, websockets), chosen once when the
-- account is created and never changed, so no stream ever moves (src/objects/notifications/home-store.ts).
-- Users created before this table have no row and keep the hash placement over NOTIFICATION_SHARDS.
CREATE TABLE notification_homes (
  user TEXT PRIMARY KEY NOT NULL,
  home INTEGER NOT NULL
) WITHOUT ROWID;

-- The object new accounts go to, and how many it has; when `filled` reaches `per_object` the
-- next object opens. `per_object` is what one object is sized for (docs/architecture.md).
CREATE TABLE notification_placement (
  id INTEGER PRIMARY KEY CHECK (id = 0),
  home INTEGER NOT NULL,
  filled INTEGER NOT NULL,
  per_object INTEGER NOT NULL
);
INSERT INTO notification_placement (id, home, filled, per_object) VALUES (0, 0, 0, 2000);
