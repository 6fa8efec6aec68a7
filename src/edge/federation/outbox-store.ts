import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { federationBackoff, federationOutbox } from '../../shared/db/schema-federation.js';

export type OutboxRow = typeof federationOutbox.$inferSelect;
export type NewOutboxRow = Omit<OutboxRow, 'seq'>;

/** Notifications for other backends waiting to be taken, and the remotes' retry times. */
export const outboxStore = {
  /** Statements queueing notifications; their order is the order they are delivered in. */
  add(db: Db, rows: readonly NewOutboxRow[]) {
    return rows.map((row) => db.insert(federationOutbox).values(row));
  },
  /** The oldest notifications waiting for a remote. */
  next(db: Db, domain: string, limit: number): Promise<OutboxRow[]> {
    return db
      .select()
      .from(federationOutbox)
      .where(eq(federationOutbox.domain, domain))
      .orderBy(asc(federationOutbox.seq))
      .limit(limit);
  },
  async taken(db: Db, domain: string, upTo: number): Promise<void> {
    await db.delete(federationOutbox).where(and(eq(federationOutbox.domain, domain), lte(federationOutbox.seq, upTo)));
  },
  /** Remotes with notifications waiting. */
  async domains(db: Db): Promise<string[]> {
    const rows = await db.selectDistinct({ domain: federationOutbox.domain }).from(federationOutbox);
    return rows.map((r) => r.domain);
  },
  async backoff(db: Db, domain: string): Promise<{ attempts: number; nextAt: number } | undefined> {
    const [row] = await db.select().from(federationBackoff).where(eq(federationBackoff.domain, domain));
    return row;
  },
  async failed(db: Db, domain: string, attempts: number, nextAt: number): Promise<void> {
    await db
      .insert(federationBackoff)
      .values({ domain, attempts, nextAt })
      .onConflictDoUpdate({ target: federationBackoff.domain, set: { attempts, nextAt } });
  },
  /** Those of `domains` whose last delivery failed (they are being retried). */
  async failing(db: Db, domains: readonly string[]): Promise<string[]> {
    if (domains.length === 0) return [];
    const rows = await db
      .select({ domain: federationBackoff.domain })
      .from(federationBackoff)
      .where(inArray(federationBackoff.domain, [...domains]));
    return rows.map((r) => r.domain);
  },
  async recovered(db: Db, domain: string): Promise<void> {
    await db.delete(federationBackoff).where(eq(federationBackoff.domain, domain));
  } /** Everything waiting for a remote, and its retry time (de-federation). */,
  async dropDomain(db: Db, domain: string): Promise<void> {
    await db.batch([
      db.delete(federationOutbox).where(eq(federationOutbox.domain, domain)),
      db.delete(federationBackoff).where(eq(federationBackoff.domain, domain)),
    ]);
  },
};
