// Legal hold and connections (wire's BlockForMissingLHConsent / RemoveLHBlocksInvolving): once a
// user is under legal hold, their connections with users here who have not consented are blocked
// both ways (`missing-legalhold-consent`); when it ends, each side gets back its status from
// before. Each row's owner hears of its change.
import type { Config } from '../../../shared/config/index.js';
import { runBatch, type Db } from '../../db/client.js';
import type { Relation } from '../../db/schema.js';
import { publish } from '../../events/publish.js';
import { legalholdConsented as consented, legalholdStatuses } from '../../galley/face.js';
import { connectionEvent } from '../connections/connection-events.js';
import { type ConnectionRow, connectionStore } from '../connections/connection-store.js';

const BLOCKED: Relation = 'missing-legalhold-consent';

async function rewrite(env: Env, config: Config, db: Db, rows: ConnectionRow[]): Promise<void> {
  await runBatch(
    db,
    rows.map((r) => connectionStore.put(db, r)),
  );
  for (const r of rows) await publish(env, config, [{ user: r.fromUser }], connectionEvent(r));
}

/** Both rows of each pair, changed by `change`; rows that do not exist are left out. */
async function pairs(db: Db, local: string, user: string, others: readonly string[]) {
  const rows: ConnectionRow[] = [];
  for (const other of others)
    for (const [from, to] of [
      [user, other],
      [other, user],
    ] as const) {
      const row = await connectionStore.get(db, from, local, to);
      if (row !== undefined) rows.push(row);
    }
  return rows;
}

/** Blocks the user's connections with users here who have not consented to legal hold. */
export async function blockNonConsenting(env: Env, config: Config, db: Db, user: string): Promise<void> {
  const local = config.brig.optSettings.setFederationDomain;
  const mine = (
    await connectionStore.withStatus(db, user, ['accepted', 'sent', 'pending', 'ignored', 'blocked', 'cancelled'])
  ).filter((r) => r.toDomain === local);
  const statuses = await legalholdStatuses(
    db,
    mine.map((r) => r.toUser),
  );
  const others = mine.map((r) => r.toUser).filter((u) => !consented(statuses.get(u)));
  const now = Date.now();
  const rows = (await pairs(db, local, user, others))
    .filter((r) => r.status !== BLOCKED)
    .map((r) => ({ ...r, status: BLOCKED, statusBeforeLegalhold: r.status, lastUpdate: now }));
  await rewrite(env, config, db, rows);
}

/** Lifts the blocks legal hold put on the user's connections. */
export async function unblockInvolving(env: Env, config: Config, db: Db, user: string): Promise<void> {
  const local = config.brig.optSettings.setFederationDomain;
  const blocked = (await connectionStore.withStatus(db, user, [BLOCKED])).filter((r) => r.toDomain === local);
  const now = Date.now();
  const rows = (
    await pairs(
      db,
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
  await rewrite(env, config, db, rows);
}
