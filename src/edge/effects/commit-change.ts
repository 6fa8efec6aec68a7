import type { Config } from '../../shared/config/index.js';
import { pendingEffectsStore } from '../../shared/effects/pending-effects-store.js';
import { faultPoint } from '../../shared/fault-point.js';
import { type BatchStatement, database, partitionOfStatements, runBatch, runBatchWith } from '../db/client.js';
import { directoryOf } from '../db/directory.js';
import { log } from '../../shared/log.js';
import { carryOut, type Effect } from './effect.js';
import './deliveries.js';

/** A change: its writes and what they cause. */
export interface Change {
  statements: BatchStatement[];
  effects: Effect[];
}

/** Nothing to write, nothing caused. */
export const noChange = (): Change => ({ statements: [], effects: [] });

/** Changes made as one: their writes in order, then their effects in order. */
export const joinChanges = (...changes: Change[]): Change => ({
  statements: changes.flatMap((c) => c.statements),
  effects: changes.flatMap((c) => c.effects),
});

/**
 * Commits a change and its effects as one unit: the writes and the record of the effects go in one
 * batch, then the effects are carried out and the record removed. A crash in between leaves the
 * record, and the sweep carries the effects out (sweepPendingEffects); a crash before leaves
 * neither. Effects that fail are left to the sweep as well: the change itself is made. The batch
 * runs in the directory's partition its statements were built for (partition 0 when it has none),
 * and the record is kept there; a change whose statements span partitions is a mistake.
 */
export async function commitChange(env: Env, config: Config, change: Change): Promise<void> {
  const directory = directoryOf(env);
  const db = partitionOfStatements(database(directory.main), change.statements);
  if (change.effects.length === 0) return runBatch(db, change.statements);
  // A statement of another view of the same single database (raw or counted binding) is partition 0.
  const partition = directory.all.length === 1 ? 0 : directory.all.indexOf(db.$client);
  if (partition < 0) throw new Error('a change built for a database outside the directory');
  const [inserted] = await runBatchWith(
    db,
    change.statements,
    pendingEffectsStore.insert(db.$client, change.effects, Date.now()),
  );
  const id = pendingEffectsStore.idOf(inserted!);
  await faultPoint(env, 'change-committed');
  await settle(env, config, partition, id, change.effects);
}

/**
 * Carries out effects a Durable Object recorded with its writes (row `id` of partition 0) and
 * removes the record; if they fail, the sweep carries them out later.
 */
export async function settleRecorded(env: Env, config: Config, id: number, effects: readonly Effect[]): Promise<void> {
  await settle(env, config, 0, id, effects);
}

async function settle(
  env: Env,
  config: Config,
  partition: number,
  id: number,
  effects: readonly Effect[],
): Promise<boolean> {
  try {
    await carryOut(env, config, id, effects, partition);
  } catch (err) {
    log('error', 'effects of a change failed; the sweep carries them out later', { id, partition, error: String(err) });
    return false;
  }
  await pendingEffectsStore.remove(directoryOf(env).all[partition]!, id);
  return true;
}

/** Rows the sweep takes per round. */
const SWEEP_BATCH = 100;

/**
 * Carries out the effects of changes committed before `before` (ms) that are still pending: their
 * requests died (or their effects failed). Each partition of the directory in turn, oldest first;
 * returns how many were carried out.
 */
export async function sweepPendingEffects(env: Env, config: Config, before: number): Promise<number> {
  let done = 0;
  for (const [partition, d1] of directoryOf(env).all.entries()) {
    for (;;) {
      const { rows, more } = await pendingEffectsStore.older(d1, before, SWEEP_BATCH);
      let progressed = false;
      for (const row of rows) {
        if (!(await settle(env, config, partition, row.id, row.effects))) continue;
        done++;
        progressed = true;
      }
      if (!more || !progressed) break;
    }
  }
  return done;
}
