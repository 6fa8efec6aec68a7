import type { Config } from '../../shared/config/index.js';
import { effectMarks, type SendMark } from '../../shared/effects/effect-marks.js';
import type { StoredEffect } from '../../shared/effects/pending-effects-store.js';

/** What an effect is carried out with. */
export interface EffectContext {
  env: Env;
  config: Config;
  /**
   * The mark of its next send of notifications (for `publish`): the same each time it is carried
   * out, so that notification objects store them once. One per send.
   */
  mark: () => SendMark;
}

/**
 * Something a change causes once it is committed (an event to members, a notice to the
 * conversation's object or to other backends): a kind and its arguments as JSON, so that the
 * change's batch can record it (see commitChange) and the sweep can carry it out after a crash.
 */
export type Effect = StoredEffect;

type Run = (ctx: EffectContext, args: never) => Promise<void>;
const kinds = new Map<string, Run>();

/**
 * Declares a kind of effect: `run` carries one out, and may run again for the same change after a
 * crash (notifications are marked; other sinks take it at least once). Returns the constructor of
 * the kind's effects. Modules declare their kinds when loaded, as events are registered.
 */
export function defineEffect<A>(
  kind: string,
  run: (ctx: EffectContext, args: A) => Promise<void>,
): (args: A) => Effect {
  if (kinds.has(kind)) throw new Error(`effect kind ${kind} defined twice`);
  kinds.set(kind, run as Run);
  return (args) => ({ kind, args });
}

/** Carries out the effects of pending row `id` (of the directory's partition `partition`), in order. */
export async function carryOut(
  env: Env,
  config: Config,
  id: number,
  effects: readonly Effect[],
  partition = 0,
): Promise<void> {
  const mark = effectMarks(id, partition);
  for (const e of effects) {
    const run = kinds.get(e.kind);
    if (run === undefined) throw new Error(`unknown effect kind ${e.kind}`);
    await run({ env, config, mark }, e.args as never);
  }
}
