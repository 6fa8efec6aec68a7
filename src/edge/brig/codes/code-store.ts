import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { codes } from '../../../shared/db/schema.js';

/** What a code is for; second-factor codes carry their action (`verify:login`, ...). */
export type CodeScope =
  | 'activation'
  | 'password-reset'
  | 'deletion'
  | 'provider-activation'
  | 'provider-password-reset'
  | `verify:${string}`;

export interface StoredCode {
  code: string;
  key: string;
  user: string | null;
  email: string | null;
  expiresAt: number;
  createdAt: number;
}

/** A uniformly random 6-digit code. */
function sixDigitCode(): string {
  const limit = 4_294_000_000; // a multiple of 10^6 below 2^32, so every code is equally likely
  for (;;) {
    const [n] = crypto.getRandomValues(new Uint32Array(1));
    if (n! < limit) return String(n! % 1_000_000).padStart(6, '0');
  }
}

export type CodeCheck = { ok: true; stored: StoredCode } | { ok: false; reason: 'missing' | 'wrong' };

/** One-time codes (D1 table codes), one live code per scope and key. */
export const codeStore = {
  /** The live (unexpired) code, if any. */
  async live(db: Db, scope: CodeScope, key: string): Promise<StoredCode | undefined> {
    const [row] = await db
      .select()
      .from(codes)
      .where(and(eq(codes.scope, scope), eq(codes.key, key)));
    return row !== undefined && row.expiresAt > Date.now() ? row : undefined;
  },

  /** Stores a fresh code (6 digits unless given), replacing any previous one for the key. */
  async issue(
    db: Db,
    scope: CodeScope,
    key: string,
    o: { user?: string; email?: string; ttlSeconds: number; code?: string },
  ): Promise<StoredCode> {
    const now = Date.now();
    const row = {
      scope,
      key,
      code: o.code ?? sixDigitCode(),
      user: o.user ?? null,
      email: o.email ?? null,
      retries: 0,
      expiresAt: now + o.ttlSeconds * 1000,
      createdAt: now,
    };
    await db
      .insert(codes)
      .values(row)
      .onConflictDoUpdate({ target: [codes.scope, codes.key], set: row });
    return row;
  },

  /**
   * Checks a code. A wrong guess counts against `maxRetries`; after that many the code is gone.
   * A right one is returned but stays until `consume` (so it can be spent together with other writes).
   */
  async check(db: Db, scope: CodeScope, key: string, code: string, maxRetries: number): Promise<CodeCheck> {
    const stored = await this.live(db, scope, key);
    if (stored === undefined) return { ok: false, reason: 'missing' };
    if (stored.code === code) return { ok: true, stored };
    const where = and(eq(codes.scope, scope), eq(codes.key, key));
    const [left] = await db
      .update(codes)
      .set({ retries: sql`${codes.retries} + 1` })
      .where(where)
      .returning({ retries: codes.retries });
    if (left !== undefined && left.retries >= maxRetries) await db.delete(codes).where(where);
    return { ok: false, reason: 'wrong' };
  },

  /** The statement deleting a code, for batches that spend it atomically with other writes. */
  consume(db: Db, scope: CodeScope, key: string) {
    return db.delete(codes).where(and(eq(codes.scope, scope), eq(codes.key, key)));
  },
};
