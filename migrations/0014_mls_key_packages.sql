-- brig: MLS key packages clients upload for others to claim (one is consumed per claim).
-- Mirrors src/edge/db/schema.ts.
CREATE TABLE mls_key_packages (
  -- KeyPackageRef (RFC 9420 5.2), base64 as the API shows it
  ref TEXT PRIMARY KEY NOT NULL,
  user TEXT NOT NULL,
  client TEXT NOT NULL,
  cipher_suite INTEGER NOT NULL,
  -- the raw TLS KeyPackage, base64
  data TEXT NOT NULL,
  -- the end of the package's lifetime (seconds since the epoch): later it is neither counted nor claimed
  not_after INTEGER NOT NULL
);
CREATE INDEX mls_key_packages_by_client ON mls_key_packages (user, client, cipher_suite);
