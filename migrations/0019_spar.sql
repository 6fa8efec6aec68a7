-- spar: SAML identity providers, the users they sign in, and SCIM provisioning (src/edge/spar/).

-- A team's SAML IdP, from its metadata. `certs` is a JSON array of the metadata's signing
-- `ds:KeyInfo` elements (as wire shows them); `old_issuers` a JSON array of issuers it replaced.
CREATE TABLE spar_idps (
  id TEXT PRIMARY KEY NOT NULL,
  team TEXT NOT NULL,
  issuer TEXT NOT NULL,
  request_uri TEXT NOT NULL,
  certs TEXT NOT NULL,
  api_version INTEGER NOT NULL,
  handle TEXT NOT NULL,
  old_issuers TEXT NOT NULL,
  replaced_by TEXT,
  metadata TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX spar_idps_by_team ON spar_idps (team);
CREATE INDEX spar_idps_by_issuer ON spar_idps (issuer);

-- Who signs in through an IdP: the issuer and the (case-folded) NameID name a user.
CREATE TABLE spar_saml_users (
  issuer TEXT NOT NULL,
  name_id TEXT NOT NULL,
  user TEXT NOT NULL,
  PRIMARY KEY (issuer, name_id)
) WITHOUT ROWID;
CREATE INDEX spar_saml_users_by_user ON spar_saml_users (user);

-- AuthnRequests sent, until they expire: the IdP's issuer, how the verdict is shown, whether answered.
CREATE TABLE spar_authn_requests (
  id TEXT PRIMARY KEY NOT NULL,
  issuer TEXT NOT NULL,
  verdict_format TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  spent INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- Assertions already taken (replays are refused) until they would have expired anyway.
CREATE TABLE spar_assertions (
  id TEXT PRIMARY KEY NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;

-- SCIM bearer tokens: only a hash of the secret is kept.
CREATE TABLE spar_scim_tokens (
  id TEXT PRIMARY KEY NOT NULL,
  team TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  idp TEXT,
  description TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX spar_scim_tokens_by_team ON spar_scim_tokens (team);

-- Users provisioned through SCIM: their externalId (unique in the team) and SCIM times.
CREATE TABLE spar_scim_users (
  user TEXT PRIMARY KEY NOT NULL,
  team TEXT NOT NULL,
  external_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE UNIQUE INDEX spar_scim_users_by_external_id ON spar_scim_users (team, external_id);
