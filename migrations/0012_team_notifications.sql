-- galley's team queue: the `team.member-join` events of each team, read with GET /teams/notifications.
-- Mirrors src/edge/db/schema.ts.
CREATE TABLE team_notifications (
  team TEXT NOT NULL,
  -- the time in the v1 UUID id as 15 sortable hex digits: the queue's order and its TTL cut-off
  key TEXT NOT NULL,
  id TEXT NOT NULL,
  -- JSON array of events
  payload TEXT NOT NULL,
  PRIMARY KEY (team, key, id)
);
-- The scheduled removal of expired rows, across teams, reads this index only.
CREATE INDEX team_notifications_key ON team_notifications (key);
