// Legal hold and connections (wire's BlockForMissingLHConsent / RemoveLHBlocksInvolving): once a
// user is under legal hold, their connections with users here who have not consented are blocked
// both ways (`missing-legalhold-consent`); when it ends, each side gets back its status from
// before. Each row's owner hears of its change. Both are changes for the legal hold change to commit.
import { type Config, localDomain } from '../../../shared/config/index.js';
import type { Db } from '../../db/client.js';
import type { Relation } from '../../../shared/db/schema.js';
import type { Change } from '../../effects/commit-change.js';
import { publishEffect } from '../../events/publish.js';
import { legalholdConsented as consented, legalholdStatuses } from '../../galley/face.js';
import { connectionEvent } from '../connections/connection-events.js';
import { type ConnectionRow, connectionBook, putSidesEffect } from '../connections/connection-book.js';

const BLOCKED: Relation = 'missing-legalhold-consent';

const rewrite = (rows: ConnectionRow[]): Change => ({
  statements: [],
  effects:
    rows.length === 0
      ? []
      : [putSidesEffect(rows), ...rows.map((r) => publishEffect([{ user: r.fromUser }], connectionEvent(r)))],
});

/** Both rows of each pair, changed by `change`; rows that do not exist are left out. */
async function pairs(env: Env, local: string, user: string, others: readonly string[]) {
  const rows: ConnectionRow[] = [];
  for (const other of others)
    for (const [from, to] of [
      [user, other],
      [other, user],
    ] as const) {
      const row = await connectionBook.get(env, from, local, to);
      if (row !== undefined) rows.push(row);
    }
  return rows;
}

/** Blocks the user's connections with users here who have not consented to legal hold. */
export async function blockingNonConsenting(env: Env, config: Config, db: Db, user: string): Promise<Change> {
  const local = localDomain(config);
  const mine = (
    await connectionBook.withStatus(env, user, ['accepted', 'sent', 'pending', 'ignored', 'blocked', 'cancelled'])
  ).filter((r) => r.toDomain === local);
  const statuses = await legalholdStatuses(
    db,
    mine.map((r) => r.toUser),
  );
  const others = mine.map((r) => r.toUser).filter((u) => !consented(statuses.get(u)));
  const now = Date.now();
  const rows = (await pairs(env, local, user, others))
    .filter((r) => r.status !== BLOCKED)
    .map((r) => ({ ...r, status: BLOCKED, statusBeforeLegalhold: r.status, lastUpdate: now }));
  return rewrite(rows);
}

/** Lifts the blocks legal hold put on the user's connections. */
export async function unblockingInvolving(env: Env, config: Config, user: string): Promise<Change> {
  const local = localDomain(config);
  const blocked = (await connectionBook.withStatus(env, user, [BLOCKED])).filter((r) => r.toDomain === local);
  const now = Date.now();
  const rows = (
    await pairs(
      env,
      local,
      user,
      blocked.map((r) => r.toUser),
    )
  )
    .filter((r) => r.status === BLOCKED)
    .map((r) => ({
      ...r,
      status: r.statusBeforeLegalhold ?? 'accepted',
      statusBeforeLegalhold: null,
      lastUpdate: now,
    }));
  return rewrite(rows);
}
