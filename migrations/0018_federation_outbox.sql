-- background-worker: notifications for other backends, in the order they were queued, until the
-- remote takes them (src/edge/background-worker/outbox-store.ts). `bundle` holds one payload per
-- federation API version; the one the remote speaks best is sent.
CREATE TABLE federation_outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  domain TEXT NOT NULL,
  component TEXT NOT NULL,
  rpc TEXT NOT NULL,
  bundle TEXT NOT NULL,
  queued_at INTEGER NOT NULL
);
CREATE INDEX federation_outbox_by_domain ON federation_outbox (domain, seq);

-- A remote that did not take its notifications: when they are tried again, and how often they failed.
CREATE TABLE federation_backoff (
  domain TEXT PRIMARY KEY NOT NULL,
  attempts INTEGER NOT NULL,
  next_at INTEGER NOT NULL
) WITHOUT ROWID;
