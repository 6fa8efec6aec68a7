// The receiving end of a notification batch (see notification-batch.ts): each notification goes
// to the federation RPC it names, in order; a run of consecutive calls of an RPC that takes many
// at once goes to it whole.
import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import type { Endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { commonErrors } from '../api/errors/common.js';
import { logUnexpected } from '../api/errors/render.js';
import { type BatchOutcome, notificationBatchRpc } from './notification-batch.js';
import { type FederationCall, federationRpc, isFederationEndpoint, type RpcCaller } from './rpc.js';

type Item = { component: string; rpc: string; body: unknown };

const TAKEN: BatchOutcome = { taken: true };
const keyOf = (i: { component: string; rpc: string }) => `${i.component}/${i.rpc}`;
const isServerError = (o: BatchOutcome) => 'code' in o && o.code >= 500;

function outcomeOf(err: unknown): BatchOutcome {
  if (err instanceof ApiError) return err.body();
  logUnexpected(err);
  return new ApiError(commonErrors.internalServerError).body();
}

async function takeOne(c: Context<AppEnv>, call: FederationCall, body: unknown, caller: RpcCaller) {
  const parsed = call.parse(body);
  if (!parsed.ok) return new ApiError(commonErrors.badRequest, parsed.error).body();
  try {
    await call.one(c, parsed.body, caller);
    return TAKEN;
  } catch (err) {
    return outcomeOf(err);
  }
}

/**
 * A run given whole to `many`: the outcomes, or undefined when it refused the run (a client
 * error), which is then taken one by one to learn whose it was.
 */
async function takeRun(
  c: Context<AppEnv>,
  many: NonNullable<FederationCall['many']>,
  call: FederationCall,
  run: readonly Item[],
  caller: RpcCaller,
): Promise<BatchOutcome[] | undefined> {
  const parsed = run.map((item) => call.parse(item.body));
  try {
    await many(
      c,
      parsed.flatMap((p) => (p.ok ? [p.body] : [])),
      caller,
    );
  } catch (err) {
    const failed = outcomeOf(err);
    return isServerError(failed) ? [failed] : undefined;
  }
  return parsed.map((p) => (p.ok ? TAKEN : new ApiError(commonErrors.badRequest, p.error).body()));
}

async function takeInOrder(
  c: Context<AppEnv>,
  calls: ReadonlyMap<string, FederationCall>,
  items: readonly Item[],
  caller: RpcCaller,
): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = [];
  for (let i = 0; i < items.length; ) {
    const key = keyOf(items[i]!);
    let end = i + 1;
    while (end < items.length && keyOf(items[end]!) === key) end += 1;
    const call = calls.get(key);
    const run = items.slice(i, end);
    i = end;
    if (call === undefined) {
      outcomes.push(...run.map(() => new ApiError(commonErrors.noEndpoint).body()));
      continue;
    }
    const whole = call.many && run.length > 1 ? await takeRun(c, call.many, call, run, caller) : undefined;
    for (const o of whole ?? []) {
      outcomes.push(o);
      if (isServerError(o)) return outcomes;
    }
    if (whole !== undefined) continue;
    for (const item of run) {
      const o = await takeOne(c, call, item.body, caller);
      outcomes.push(o);
      if (isServerError(o)) return outcomes;
    }
  }
  return outcomes;
}

/** The batch RPC over the federation RPCs among `endpoints`. */
export function takeBatch(endpoints: readonly Endpoint[]): Endpoint {
  const calls = new Map(endpoints.filter(isFederationEndpoint).map((e) => [keyOf(e.federation), e.federation]));
  return federationRpc(
    { ...notificationBatchRpc, description: 'The outcome of each notification taken, in order' },
    async (c, { notifications }, caller) => ({ outcomes: await takeInOrder(c, calls, notifications, caller) }),
  );
}
