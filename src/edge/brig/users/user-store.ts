import { eq, inArray, sql } from 'drizzle-orm';
import { inChunks } from '../../db/chunks.js';
import { keysByPartition, partitionFor, preparedOnce, type Db } from '../../db/client.js';
import { users } from '../../../shared/db/schema.js';
import type { UserRow } from './user-json.js';

/** The lookup key of an email address: one account per address, whatever its case. */
export const emailKeyOf = (email: string) => email.trim().toLowerCase();

/** A plausible address: local part, `@`, a domain with a dot; no spaces. What `invalid-email` refuses. */
export function isValidEmail(email: string): boolean {
  return email.length <= 256 && /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/.test(email);
}

/** An account others may look at: it exists and is not a pending invitation (deleted ones show as such). */
export const visibleAccount = (u: UserRow | undefined): u is UserRow =>
  u !== undefined && u.status !== 'pending-invitation';

// The read behind every authenticated request's "who is this": built once.
const userById = preparedOnce((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare(),
);

/**
 * Users in D1 (table users), each in the partition of its id's slot: `db` is the caller's view of
 * the directory, the store goes where the user is.
 */
export const userStore = {
  byId(db: Db, id: string): Promise<UserRow | undefined> {
    return userById(partitionFor(db, id)).get({ id });
  },
  async byIds(db: Db, ids: readonly string[]): Promise<UserRow[]> {
    const parts = [...keysByPartition(db, ids, (id) => id)].map(([part, some]) =>
      inChunks(some, 1, (chunk) => part.select().from(users).where(inArray(users.id, chunk))),
    );
    return (await Promise.all(parts)).flat();
  },
  insert(db: Db, row: typeof users.$inferInsert) {
    return partitionFor(db, row.id).insert(users).values(row);
  },
  update(db: Db, id: string, patch: Partial<typeof users.$inferInsert>) {
    return partitionFor(db, id).update(users).set(patch).where(eq(users.id, id));
  },
};
