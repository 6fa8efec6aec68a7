import { and, asc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { oauthClients, oauthCodes, oauthRefreshTokens } from '../../../shared/db/schema-oauth.js';

export type OAuthClientRow = typeof oauthClients.$inferSelect;
export type OAuthCodeRow = typeof oauthCodes.$inferSelect;
export type RefreshTokenRow = typeof oauthRefreshTokens.$inferSelect;

const live = () => gt(oauthRefreshTokens.expiresAt, Date.now());

/** OAuth's tables: applications, one-time codes, refresh tokens (sessions). */
export const oauthStore = {
  async client(db: Db, id: string): Promise<OAuthClientRow | undefined> {
    const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, id));
    return row;
  },
  async clients(db: Db, ids: readonly string[]): Promise<OAuthClientRow[]> {
    return ids.length === 0
      ? []
      : db
          .select()
          .from(oauthClients)
          .where(inArray(oauthClients.id, [...ids]));
  },
  addClient: (db: Db, row: OAuthClientRow) => db.insert(oauthClients).values(row),
  async updateClient(
    db: Db,
    id: string,
    set: { name: string; redirectUrl: string },
  ): Promise<OAuthClientRow | undefined> {
    const [row] = await db.update(oauthClients).set(set).where(eq(oauthClients.id, id)).returning();
    return row;
  },
  /** Removes an application with its codes and sessions; false when there was none. */
  async deleteClient(db: Db, id: string): Promise<boolean> {
    const [deleted] = await db.batch([
      db.delete(oauthClients).where(eq(oauthClients.id, id)).returning({ id: oauthClients.id }),
      db.delete(oauthCodes).where(eq(oauthCodes.client, id)),
      db.delete(oauthRefreshTokens).where(eq(oauthRefreshTokens.client, id)),
    ]);
    return deleted.length > 0;
  },

  addCode: (db: Db, row: OAuthCodeRow) => db.insert(oauthCodes).values(row),
  /** The code's grant, used up by this lookup whatever follows; undefined when unknown or expired. */
  async takeCode(db: Db, codeHash: string): Promise<OAuthCodeRow | undefined> {
    const [row] = await db.delete(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).returning();
    return row !== undefined && row.expiresAt > Date.now() ? row : undefined;
  },

  /**
   * A new session, after dropping the user's oldest ones (over all applications) so that at most
   * `max` stay live.
   */
  async addRefreshToken(db: Db, row: RefreshTokenRow, max: number): Promise<void> {
    const held = await db
      .select({ id: oauthRefreshTokens.id })
      .from(oauthRefreshTokens)
      .where(and(eq(oauthRefreshTokens.user, row.user), live()))
      .orderBy(asc(oauthRefreshTokens.createdAt));
    const dropped = held.slice(0, Math.max(0, held.length - max + 1)).map((r) => r.id);
    const now = Date.now();
    await db.batch([
      // expired sessions of the user go too
      db
        .delete(oauthRefreshTokens)
        .where(and(eq(oauthRefreshTokens.user, row.user), lte(oauthRefreshTokens.expiresAt, now))),
      ...(dropped.length === 0 ? [] : [db.delete(oauthRefreshTokens).where(inArray(oauthRefreshTokens.id, dropped))]),
      db.insert(oauthRefreshTokens).values(row),
    ]);
  },
  async refreshToken(db: Db, id: string): Promise<RefreshTokenRow | undefined> {
    const [row] = await db
      .select()
      .from(oauthRefreshTokens)
      .where(and(eq(oauthRefreshTokens.id, id), live()));
    return row;
  },
  /** The session, ended by this lookup (refreshing rotates the token); undefined when not live. */
  async takeRefreshToken(db: Db, id: string): Promise<RefreshTokenRow | undefined> {
    const [row] = await db.delete(oauthRefreshTokens).where(eq(oauthRefreshTokens.id, id)).returning();
    return row !== undefined && row.expiresAt > Date.now() ? row : undefined;
  },
  /** A user's live sessions, oldest first. */
  refreshTokensOf: (db: Db, user: string): Promise<RefreshTokenRow[]> =>
    db
      .select()
      .from(oauthRefreshTokens)
      .where(and(eq(oauthRefreshTokens.user, user), live()))
      .orderBy(asc(oauthRefreshTokens.createdAt)),
  deleteRefreshToken: (db: Db, id: string) => db.delete(oauthRefreshTokens).where(eq(oauthRefreshTokens.id, id)),
  /** Ends every session of a user with one application. */
  deleteSessions: (db: Db, user: string, client: string) =>
    db.delete(oauthRefreshTokens).where(and(eq(oauthRefreshTokens.user, user), eq(oauthRefreshTokens.client, client))),
};
