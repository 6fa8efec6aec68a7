import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Config } from '../../../shared/config/index.js';
import type { ZauthKeys } from '../../auth/keys.js';
import { signCookie } from '../../auth/tokens.js';
import type { Db } from '../../db/client.js';
import { cookies } from '../../../shared/db/schema.js';

export type CookieRow = typeof cookies.$inferSelect;
export type CookieKind = CookieRow['kind'];

const COOKIE_NAME = 'zuid';

export interface IssuedCookie {
  token: string;
  row: CookieRow;
}

function randomCookieId(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}

/** Signs a new cookie for a user and records it (the row is what `/cookies/remove` revokes). */
export async function issueCookie(
  db: Db,
  keys: ZauthKeys,
  config: Config,
  user: string,
  o: { kind: CookieKind; label?: string | undefined; legalhold?: boolean },
): Promise<IssuedCookie> {
  const { zauth, optSettings } = config.brig;
  const now = Date.now();
  const lifetime = o.kind === 'persistent' ? zauth.userTokenTimeout : zauth.sessionTokenTimeout;
  const row: CookieRow = {
    user,
    id: randomCookieId(),
    kind: o.kind,
    label: o.label ?? null,
    createdAt: now,
    expiresAt: Math.floor(now / 1000) + lifetime,
    successor: null,
    client: null,
    legalhold: o.legalhold === true,
  };
  await db.insert(cookies).values(row);
  await evictBeyondLimit(db, user, o.kind, optSettings.setUserCookieLimit);
  const token = await signCookie(keys, { user, id: row.id, session: o.kind === 'session' }, row.expiresAt);
  return { token, row };
}

/**
 * Expired cookies go first, then superseded ones (renewed at `/access`), then the oldest, until
 * the user holds at most `limit` of this kind.
 */
async function evictBeyondLimit(db: Db, user: string, kind: CookieKind, limit: number): Promise<void> {
  const nowSeconds = Math.floor(Date.now() / 1000);
  await db.delete(cookies).where(and(eq(cookies.user, user), lt(cookies.expiresAt, nowSeconds)));
  const rows = await db
    .select({ id: cookies.id })
    .from(cookies)
    .where(and(eq(cookies.user, user), eq(cookies.kind, kind)))
    .orderBy(sql`${cookies.successor} IS NULL`, asc(cookies.createdAt), asc(cookies.id));
  const excess = rows.slice(0, Math.max(0, rows.length - limit)).map((r) => r.id);
  if (excess.length > 0) await db.delete(cookies).where(and(eq(cookies.user, user), inArray(cookies.id, excess)));
}

export const cookieStore = {
  async find(db: Db, user: string, id: number): Promise<CookieRow | undefined> {
    const [row] = await db
      .select()
      .from(cookies)
      .where(and(eq(cookies.user, user), eq(cookies.id, id)));
    return row;
  },
  async list(db: Db, user: string): Promise<CookieRow[]> {
    return db.select().from(cookies).where(eq(cookies.user, user)).orderBy(asc(cookies.createdAt));
  },
  async bindClient(db: Db, user: string, id: number, client: string): Promise<void> {
    await db
      .update(cookies)
      .set({ client })
      .where(and(eq(cookies.user, user), eq(cookies.id, id)));
  },
  async setSuccessor(db: Db, user: string, id: number, successor: number): Promise<void> {
    await db
      .update(cookies)
      .set({ successor })
      .where(and(eq(cookies.user, user), eq(cookies.id, id)));
  },
  /** The statement revoking every cookie of a user, for batches. */
  revokeStatement(db: Db, user: string) {
    return db.delete(cookies).where(eq(cookies.user, user));
  },
  /** The statement revoking a user's legal hold cookies (their device is gone). */
  revokeLegalhold(db: Db, user: string) {
    return db.delete(cookies).where(and(eq(cookies.user, user), eq(cookies.legalhold, true)));
  },
  /** Revokes the cookies matching any of the ids or labels (all of them when both are empty). */
  async revoke(db: Db, user: string, o: { ids?: number[]; labels?: string[] } = {}): Promise<void> {
    const ids = o.ids ?? [];
    const labels = o.labels ?? [];
    const which =
      ids.length === 0 && labels.length === 0
        ? undefined
        : or(
            ...(ids.length > 0 ? [inArray(cookies.id, ids)] : []),
            ...(labels.length > 0 ? [inArray(cookies.label, labels)] : []),
          );
    await db.delete(cookies).where(which === undefined ? eq(cookies.user, user) : and(eq(cookies.user, user), which));
  },
};

/** The `Set-Cookie` value: HttpOnly, only sent to `/access`, Secure unless the local setting drops it. */
export function setCookieHeader(config: Config, issued: IssuedCookie): string {
  const expiresAt = issued.row.kind === 'persistent' ? issued.row.expiresAt : undefined;
  return cookieHeader(config, { name: COOKIE_NAME, value: issued.token, path: '/access', expiresAt });
}

/** A `Set-Cookie` value as brig sets them: HttpOnly, Secure unless the local setting drops it. */
export function cookieHeader(
  config: Config,
  o: {
    name: string;
    value: string;
    path: string /** s since the epoch; none: a session cookie */;
    expiresAt?: number | undefined;
  },
): string {
  const parts = [`${o.name}=${o.value}`, `Path=${o.path}`, 'HttpOnly'];
  if (o.expiresAt !== undefined) parts.push(`Expires=${new Date(o.expiresAt * 1000).toUTCString()}`);
  if (!config.brig.optSettings.setCookieInsecure) parts.push('Secure');
  return parts.join('; ');
}

/** Every `zuid` value of a Cookie header (a browser may send more than one). */
export function cookieTokensOf(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p.startsWith(`${COOKIE_NAME}=`))
    .map((p) => p.slice(COOKIE_NAME.length + 1));
}
