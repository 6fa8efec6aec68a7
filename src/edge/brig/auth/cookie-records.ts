import type { CookieRecord, CookieSelection } from '../../../shared/accounts/material.js';
import type { Config } from '../../../shared/config/index.js';
import type { ZauthKeys } from '../../auth/keys.js';
import { signCookie } from '../../auth/tokens.js';
import { defineEffect } from '../../effects/effect.js';
import { accountObject } from '../clients/account-object.js';

// A user's cookie records live in their Account object (src/objects/account/cookie-store.ts).

export type CookieRow = CookieRecord;
export type CookieKind = CookieRecord['kind'];

const COOKIE_NAME = 'zuid';

export interface IssuedCookie {
  token: string;
  row: CookieRow;
}

interface NewCookie {
  kind: CookieKind;
  label?: string | undefined;
  legalhold?: boolean;
}

function newRecord(config: Config, user: string, o: NewCookie): CookieRow {
  const { zauth } = config.brig;
  const now = Date.now();
  const lifetime = o.kind === 'persistent' ? zauth.userTokenTimeout : zauth.sessionTokenTimeout;
  return {
    user,
    id: crypto.getRandomValues(new Uint32Array(1))[0]!,
    kind: o.kind,
    label: o.label ?? null,
    createdAt: now,
    expiresAt: Math.floor(now / 1000) + lifetime,
    successor: null,
    client: null,
    legalhold: o.legalhold === true,
  };
}

const signed = async (keys: ZauthKeys, row: CookieRow): Promise<IssuedCookie> => ({
  token: await signCookie(keys, { user: row.user, id: row.id, session: row.kind === 'session' }, row.expiresAt),
  row,
});

/**
 * Signs a new cookie for a user and records it (the record is what `/cookies/remove` revokes);
 * beyond `setUserCookieLimit` of its kind, the user's oldest go.
 */
export async function issueCookie(
  env: Env,
  keys: ZauthKeys,
  config: Config,
  user: string,
  o: NewCookie,
): Promise<IssuedCookie> {
  const row = newRecord(config, user, o);
  await accountObject(env, user).issueCookie(row, config.brig.optSettings.setUserCookieLimit);
  return signed(keys, row);
}

/** A cookie replacing `old` (bound to its client), which stands for it from now on. */
export async function renewCookie(env: Env, keys: ZauthKeys, config: Config, old: CookieRow): Promise<IssuedCookie> {
  const row = newRecord(config, old.user, { kind: old.kind, label: old.label ?? undefined, legalhold: old.legalhold });
  await accountObject(env, old.user).renewCookie(old.user, old.id, row, config.brig.optSettings.setUserCookieLimit);
  return signed(keys, { ...row, client: old.client });
}

/** A user's cookie records, in their Account object. */
export const cookieRecords = {
  /** The record cookie `id` stands for: its own, or its successor's once renewed. */
  live: (env: Env, user: string, id: number): Promise<CookieRow | undefined> =>
    accountObject(env, user).liveCookie(user, id),
  /** Oldest first. */
  list: (env: Env, user: string): Promise<CookieRow[]> => accountObject(env, user).cookieList(user),
  bindClient: (env: Env, user: string, id: number, client: string): Promise<void> =>
    accountObject(env, user).bindCookie(user, id, client),
  /** Revokes the cookies matching any of the ids or labels (all of them when both are empty). */
  revoke: (env: Env, user: string, which: CookieSelection = {}): Promise<void> =>
    accountObject(env, user).revokeCookies(user, which),
};

/** A change took the user's legal hold device away: its service's cookies go too. */
export const revokeLegalholdCookiesEffect = defineEffect(
  'revoke-legalhold-cookies',
  ({ env }, { user }: { user: string }) => cookieRecords.revoke(env, user, { legalhold: true }),
);

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
