// The worker in which test/helpers/workerd.ts runs scenarios: one Durable Object per scenario, with
// its own SQLite storage, as the notification objects have theirs. `GET /<suite>/<name>` runs one
// and answers `{value}` (what the scenario returned) or `{error}`.
import { DurableObject } from 'cloudflare:workers';
import { accountStoresScenarios } from './account-stores.scenarios.js';
import { bytesPartsScenarios } from './bytes-parts.scenarios.js';
import { logStoreScenarios } from './log-store.scenarios.js';
import { queueStoreScenarios } from './queue-store.scenarios.js';
import { rosterScenarios } from './rosters.scenarios.js';

/** A scenario gets the object's SQL storage and returns what the test asserts on (JSON). */
export type Scenario = (sql: SqlStorage) => unknown;

const SUITES: Record<string, Record<string, Scenario>> = {
  'account-stores': accountStoresScenarios,
  'bytes-parts': bytesPartsScenarios,
  'log-store': logStoreScenarios,
  'queue-store': queueStoreScenarios,
  rosters: rosterScenarios,
};

const scenarioOf = (url: string) => {
  const [, suite = '', name = ''] = new URL(url).pathname.split('/');
  return { suite, name, run: SUITES[suite]?.[name] };
};

export class Scenarios extends DurableObject {
  override async fetch(request: Request): Promise<Response> {
    const { run } = scenarioOf(request.url);
    if (run === undefined) return Response.json({ error: 'no such scenario' }, { status: 404 });
    try {
      return Response.json({ value: (await run(this.ctx.storage.sql)) ?? null });
    } catch (err) {
      return Response.json({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }, { status: 500 });
    }
  }
}

export default {
  fetch(request: Request, env: { SCENARIOS: DurableObjectNamespace<Scenarios> }): Promise<Response> {
    const { suite, name } = scenarioOf(request.url);
    return env.SCENARIOS.get(env.SCENARIOS.idFromName(`${suite}/${name}`)).fetch(request);
  },
};
