import { groupBy } from '../../../shared/group-by.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { database, replicaOf } from '../../db/client.js';
import { directoryOf } from '../../db/directory.js';
import { type NameClaim, nameStore } from './name-store.js';
import type { UserRow } from './user-json.js';
import { emailKeyOf, userStore } from './user-store.js';

/**
 * The names users are found by, unique across the directory's partitions: a claim in the name's
 * own partition, made before the user's row takes the name and dropped after the row gives it up.
 * The row decides: a lookup checks that it still holds the name, and a claim the row does not
 * confirm (a crash between the two writes) is free once GRACE_MS old.
 */
const GRACE_MS = 60_000;

const emailName = (email: string) => `e:${emailKeyOf(email)}`;
const handleName = (handle: string) => `h:${handle}`;

/** The names a user's row holds. */
const namesOf = (row: Pick<UserRow, 'emailKey' | 'handle'>): string[] => [
  ...(row.emailKey === null ? [] : [`e:${row.emailKey}`]),
  ...(row.handle === null ? [] : [handleName(row.handle)]),
];

const holds = (row: UserRow | undefined, name: string) => row !== undefined && namesOf(row).includes(name);

const namesDb = (env: Env, name: string) => database(directoryOf(env).of(name));
const usersDb = (env: Env) => database(env.DB);

/**
 * The user whose row holds the name. `replica`: for looking at others, both reads in sessions a
 * D1 replica may serve (a name taken a moment ago may not show yet).
 */
async function userByName(env: Env, name: string, reads: Reads = 'primary'): Promise<UserRow | undefined> {
  const view = reads === 'primary' ? database : replicaOf;
  const claim = await nameStore.holder(view(directoryOf(env).of(name)), name);
  if (claim === undefined) return undefined;
  const row = await userStore.byId(view(env.DB), claim.user);
  return holds(row, name) ? row : undefined;
}

type Reads = 'primary' | 'replica';

export const userByEmail = (env: Env, email: string, reads?: Reads) => userByName(env, emailName(email), reads);
export const userByHandle = (env: Env, handle: string, reads?: Reads) => userByName(env, handleName(handle), reads);

/** The handles among these that someone holds or is claiming. */
export async function takenHandles(env: Env, handles: readonly string[]): Promise<Set<string>> {
  const directory = directoryOf(env);
  const byPartition = groupBy(handles.map(handleName), (n) => directory.of(n));
  const claims = await Promise.all([...byPartition].map(([d1, names]) => nameStore.holders(database(d1), names)));
  const now = Date.now();
  const live = await Promise.all(
    claims.flat().map(async (c) => ((await liveClaim(env, c.name, c, now)) ? c.name : null)),
  );
  return new Set(live.filter((n) => n !== null).map((n) => n.slice('h:'.length)));
}

/** Whether a claim still stands: young enough to be in flight, or confirmed by its user's row. */
async function liveClaim(env: Env, name: string, claim: NameClaim, now: number): Promise<boolean> {
  return now - claim.at < GRACE_MS || holds(await userStore.byId(usersDb(env), claim.user), name);
}

/** Claims the name for the user: true when it is theirs (it was free, theirs, or its claim lapsed). */
async function claim(env: Env, name: string, user: string, now: number): Promise<boolean> {
  const db = namesDb(env, name);
  for (let tries = 0; tries < 3; tries++) {
    if (await nameStore.claim(db, name, user, now)) return true;
    const held = await nameStore.holder(db, name);
    if (held === undefined) continue; // released meanwhile
    if (await liveClaim(env, name, held, now)) return false;
    if (await nameStore.takeOver(db, name, held, user, now)) return true;
  }
  return false;
}

const release = (env: Env, name: string, user: string, before: number) =>
  nameStore.release(namesDb(env, name), name, user, before);

/** 409 for a name another user holds: `key-exists` for an email, `handle-exists` for a handle. */
const taken = (name: string) => new ApiError(name.startsWith('e:') ? brigErrors.keyExists : brigErrors.handleExists);

/**
 * Gives the user the names `from` does not hold and `to` does: claims them, runs `write` (which
 * makes the user's row hold `to`'s names), then releases the names only `from` held. A name
 * another user holds is 409 before anything is written; when `write` fails, its new claims are
 * released again. `from` is undefined for a new user.
 */
export async function renaming<T>(
  env: Env,
  user: string,
  from: Pick<UserRow, 'emailKey' | 'handle'> | undefined,
  to: Pick<UserRow, 'emailKey' | 'handle'>,
  write: () => Promise<T>,
): Promise<T> {
  const before = from === undefined ? [] : namesOf(from);
  const after = namesOf(to);
  const gained = after.filter((n) => !before.includes(n));
  const now = Date.now();
  const claimed: string[] = [];
  try {
    for (const name of gained) {
      if (!(await claim(env, name, user, now))) throw taken(name);
      claimed.push(name);
    }
    const written = await write();
    await Promise.all(before.filter((n) => !after.includes(n)).map((n) => release(env, n, user, now)));
    return written;
  } catch (err) {
    await releaseUnwritten(env, user, claimed, now);
    throw err;
  }
}

/** After a failed write: the claims the user's row does not hold (the write did not happen) are released. */
async function releaseUnwritten(env: Env, user: string, claimed: readonly string[], at: number): Promise<void> {
  if (claimed.length === 0) return;
  try {
    const row = await userStore.byId(usersDb(env), user);
    const unwritten = claimed.filter((n) => !holds(row, n));
    await Promise.all(unwritten.map((n) => release(env, n, user, at + 1)));
  } catch {
    // The claims lapse after GRACE_MS.
  }
}
