-- End-to-end identity: the anti-replay nonce a client's next DPoP proof must carry (one per client, used once).
CREATE TABLE dpop_nonces (
  user TEXT NOT NULL,
  client TEXT NOT NULL,
  nonce TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (user, client)
) WITHOUT ROWID;
