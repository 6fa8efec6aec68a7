// Tables of tokens brig issues to others than its users: OAuth applications, DPoP access tokens (end-to-end identity).
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** A curated third-party application (registered through the internal API). */
export const oauthClients = sqliteTable('oauth_clients', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  redirectUrl: text('redirect_url').notNull(),
  /** SHA-256 of the client secret, hex. */
  secretHash: text('secret_hash').notNull(),
});

/** A one-time authorization code, by its SHA-256 (hex). */
export const oauthCodes = sqliteTable('oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  client: text('client').notNull(),
  user: text('user').notNull(),
  /** The granted scopes, space-separated. */
  scope: text('scope').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  /** PKCE (S256): base64url SHA-256 of the verifier the token request must present. */
  codeChallenge: text('code_challenge').notNull(),
  /** ms since the epoch */
  expiresAt: integer('expires_at').notNull(),
});

/** An application's session with a user: the refresh token's row (its JWT names the id). */
export const oauthRefreshTokens = sqliteTable('oauth_refresh_tokens', {
  id: text('id').primaryKey(),
  client: text('client').notNull(),
  user: text('user').notNull(),
  scope: text('scope').notNull(),
  /** ms since the epoch */
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
});

/** The anti-replay nonce of a client's next DPoP proof (end-to-end identity): one per client, used once. */
export const dpopNonces = sqliteTable(
  'dpop_nonces',
  {
    user: text('user').notNull(),
    client: text('client').notNull(),
    nonce: text('nonce').notNull(),
    /** ms since the epoch */
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.user, t.client] })],
);
