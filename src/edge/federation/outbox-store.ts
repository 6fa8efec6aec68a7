import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { federationBackoff, federationOutbox, federationOutboxParts } from '../../shared/db/schema-federation.js';
import { splitText } from '../../shared/db/split-text.js';

/** A queued notification: JSON bundle (federation API version → payload) read back whole. */
export interface OutboxRow {
  seq: number;
  domain: string;
  component: typeof federationOutbox.$inferSelect.component;
  rpc: string;
  bundle: Record<string, unknown>;
  queuedAt: number;
}
export type NewOutboxRow = Omit<OutboxRow, 'seq'>;

/** The notifications of a remote up to `upTo` (in queue order). */
const queuedUpTo = (db: Db, domain: string, upTo?: number) =>
  db
    .select({ seq: federationOutbox.seq })
    .from(federationOutbox)
    .where(
      upTo === undefined
        ? eq(federationOutbox.domain, domain)
        : and(eq(federationOutbox.domain, domain), lte(federationOutbox.seq, upTo)),
    );

/**
 * Notifications for other backends waiting to be taken, and the remotes' retry times. A bundle
 * longer than a row (what other backends are told of a large MLS group's commit) keeps the rest
 * in `federation_outbox_parts`.
 */
export const outboxStore = {
  /** Statements queueing notifications; their order is the order they are delivered in. */
  add(db: Db, rows: readonly NewOutboxRow[]) {
    return rows.flatMap((row) => {
      const [first, ...rest] = splitText(JSON.stringify(row.bundle));
      return [
        db.insert(federationOutbox).values({ ...row, bundle: first!, parts: rest.length }),
        // The row just inserted, in the same batch (a transaction: nobody else inserts meanwhile).
        ...rest.map((text, i) =>
          db
            .insert(federationOutboxParts)
            .values({ seq: sql`(SELECT max(seq) FROM federation_outbox)`, part: i + 1, text }),
        ),
      ];
    });
  },
  /**
   * The oldest notifications waiting for a remote. One kept in parts comes alone (first, or not
   * at all: the next call starts with it), so that a page holds at most one large bundle.
   */
  async next(db: Db, domain: string, limit: number): Promise<OutboxRow[]> {
    const rows = await db
      .select()
      .from(federationOutbox)
      .where(eq(federationOutbox.domain, domain))
      .orderBy(asc(federationOutbox.seq))
      .limit(limit);
    const large = rows.findIndex((r) => r.parts > 0);
    const page = large < 0 ? rows : large === 0 ? rows.slice(0, 1) : rows.slice(0, large);
    return Promise.all(
      page.map(async ({ parts, bundle, ...r }) => ({
        ...r,
        bundle: JSON.parse(parts === 0 ? bundle : bundle + (await restOf(db, r.seq))) as Record<string, unknown>,
      })),
    );
  },
  async taken(db: Db, domain: string, upTo: number): Promise<void> {
    await db.batch([
      db.delete(federationOutboxParts).where(inArray(federationOutboxParts.seq, queuedUpTo(db, domain, upTo))),
      db.delete(federationOutbox).where(and(eq(federationOutbox.domain, domain), lte(federationOutbox.seq, upTo))),
    ]);
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
  },
  /** Everything waiting for a remote, and its retry time (de-federation). */
  async dropDomain(db: Db, domain: string): Promise<void> {
    await db.batch([
      db.delete(federationOutboxParts).where(inArray(federationOutboxParts.seq, queuedUpTo(db, domain))),
      db.delete(federationOutbox).where(eq(federationOutbox.domain, domain)),
      db.delete(federationBackoff).where(eq(federationBackoff.domain, domain)),
    ]);
  },
};

/** A bundle's parts after the row's own, joined. */
async function restOf(db: Db, seq: number): Promise<string> {
  const parts = await db
    .select({ text: federationOutboxParts.text })
    .from(federationOutboxParts)
    .where(eq(federationOutboxParts.seq, seq))
    .orderBy(asc(federationOutboxParts.part));
  return parts.map((p) => p.text).join('');
}
