import { and, asc, count, eq, gt, inArray, or } from 'drizzle-orm';
import { inChunks } from '../../db/chunks.js';
import type { Db } from '../../db/client.js';
import { connections, type Relation } from '../../../shared/db/schema.js';

export type ConnectionRow = typeof connections.$inferSelect;

const key = (from: string, domain: string, to: string) =>
  and(eq(connections.fromUser, from), eq(connections.toDomain, domain), eq(connections.toUser, to));

/** Connections in D1 (table connections), one row per direction. */
export const connectionStore = {
  async get(db: Db, from: string, domain: string, to: string): Promise<ConnectionRow | undefined> {
    const [row] = await db
      .select()
      .from(connections)
      .where(key(from, domain, to));
    return row;
  },
  /** Statement writing one direction's status. */
  put(db: Db, row: ConnectionRow) {
    return db
      .insert(connections)
      .values(row)
      .onConflictDoUpdate({
        target: [connections.fromUser, connections.toDomain, connections.toUser],
        set: { status: row.status, lastUpdate: row.lastUpdate, statusBeforeLegalhold: row.statusBeforeLegalhold },
      });
  },
  /** Of these local users, those connected to `user` in both directions (both rows accepted). */
  async connectedWith(db: Db, user: string, domain: string, others: readonly string[]): Promise<Set<string>> {
    const mine = await this.acceptedTo(db, user, domain, others);
    const back = await this.acceptingOf(db, others, domain, user);
    return new Set([...mine].filter((u) => back.has(u)));
  },
  /** Of these users of `domain`, those `user`'s own connection to is accepted. */
  async acceptedTo(db: Db, user: string, domain: string, others: readonly string[]): Promise<Set<string>> {
    const rows = await inChunks(others, 1, (chunk) =>
      db
        .select({ to: connections.toUser })
        .from(connections)
        .where(
          and(
            eq(connections.fromUser, user),
            eq(connections.toDomain, domain),
            eq(connections.status, 'accepted'),
            inArray(connections.toUser, chunk),
          ),
        ),
    );
    return new Set(rows.map((r) => r.to));
  },
  /** Of these local users, those whose own connection to `domain/user` is accepted. */
  async acceptingOf(db: Db, users: readonly string[], domain: string, user: string): Promise<Set<string>> {
    const rows = await inChunks(users, 1, (chunk) =>
      db
        .select({ from: connections.fromUser })
        .from(connections)
        .where(
          and(
            inArray(connections.fromUser, chunk),
            eq(connections.toDomain, domain),
            eq(connections.toUser, user),
            eq(connections.status, 'accepted'),
          ),
        ),
    );
    return new Set(rows.map((r) => r.from));
  },
  /** Statement removing every connection of a user, in both directions. */
  deleteAllOf(db: Db, user: string) {
    return db.delete(connections).where(or(eq(connections.fromUser, user), eq(connections.toUser, user)));
  },
  /** Statement removing the connections of these local users to `domain/user` (a deleted remote user). */
  deleteTo(db: Db, users: readonly string[], domain: string, user: string) {
    return db
      .delete(connections)
      .where(
        and(inArray(connections.fromUser, [...users]), eq(connections.toDomain, domain), eq(connections.toUser, user)),
      );
  },
  /** The local users with a connection (of any status) to a user of `domain`. */
  async usersConnectedTo(db: Db, domain: string): Promise<string[]> {
    const rows = await db
      .selectDistinct({ user: connections.fromUser })
      .from(connections)
      .where(eq(connections.toDomain, domain));
    return rows.map((r) => r.user);
  },
  /** Statement removing every connection to users of `domain`. */
  deleteToDomain(db: Db, domain: string) {
    return db.delete(connections).where(eq(connections.toDomain, domain));
  },
  /** Connections counting against `setUserMaxConnections`: accepted and sent. */
  async countActive(db: Db, user: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(connections)
      .where(and(eq(connections.fromUser, user), inArray(connections.status, ['accepted', 'sent'])));
    return row?.n ?? 0;
  },
  async allOf(db: Db, user: string): Promise<ConnectionRow[]> {
    return db.select().from(connections).where(eq(connections.fromUser, user));
  },
  async withStatus(db: Db, user: string, statuses: Relation[]): Promise<ConnectionRow[]> {
    return db
      .select()
      .from(connections)
      .where(and(eq(connections.fromUser, user), inArray(connections.status, statuses)));
  },
  /** A page of the user's connections ordered by (domain, user), after the given position. */
  async page(db: Db, user: string, size: number, after?: { domain: string; user: string }): Promise<ConnectionRow[]> {
    const position =
      after === undefined
        ? undefined
        : or(
            gt(connections.toDomain, after.domain),
            and(eq(connections.toDomain, after.domain), gt(connections.toUser, after.user)),
          );
    return db
      .select()
      .from(connections)
      .where(position === undefined ? eq(connections.fromUser, user) : and(eq(connections.fromUser, user), position))
      .orderBy(asc(connections.toDomain), asc(connections.toUser))
      .limit(size);
  },
};
