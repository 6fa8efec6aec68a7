import type { OpenAPIHono } from '@hono/zod-openapi';
import { enabledVersions, type ApiVersion } from '../shared/api-version.js';
import { removalKeys } from '../shared/mls/removal-keys.js';
import {
  formatProblem,
  loadConfig,
  type Config,
  type ConfigTexts,
  type Problem,
  localDomain,
} from '../shared/config/index.js';
import type { AppEnv } from './api/app-env.js';
import type { Runtime } from './api/runtime.js';
import type { Deps } from './api/deps.js';
import { userAccess } from './brig/user-access.js';
import { database } from './db/client.js';
import { buildApiApp } from './api/build-app.js';
import { existsIn } from './api/endpoint.js';
import { mountDocs } from './docs/mount.js';
import { fileProblems } from './api/config-files.js';
import { keepFederatorToken } from './federation/federator-link.js';
import { internalEndpoints, publicEndpoints } from './routes.js';
import { intraVia, sternEndpoints } from './stern/face.js';
import { log } from '../shared/log.js';
import { ssoAccess } from './spar/sso-access.js';

export type RuntimeResult = { ok: true; runtime: Runtime } | { ok: false; problems: Problem[] };

function parseTexts(source: string | undefined): { texts: ConfigTexts } | { problem: Problem } {
  const problem = (message: string) => ({ problem: { file: 'SVC_CONFIG', path: '', message } });
  if (source === undefined || source === '') return problem('the SVC_CONFIG binding is missing');
  try {
    const value: unknown = JSON.parse(source);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { texts: value as ConfigTexts };
  } catch {
    // reported below
  }
  return problem('SVC_CONFIG must be a JSON object of file name to YAML text');
}

/** The dependencies of requests and jobs with these bindings: made once per set of bindings. */
function depsMaker(config: Config): (env: Env) => Deps {
  const made = new WeakMap<Env, Deps>();
  const domain = localDomain(config);
  return (env) => {
    let d = made.get(env);
    if (d === undefined) {
      const db = database(env.DB);
      d = { config, env, db, domain, users: userAccess(env, db, config), sso: ssoAccess(db) };
      made.set(env, d);
    }
    return d;
  };
}

function buildRuntime(config: Config): Runtime {
  const deps = depsMaker(config);
  const internalApp = buildApiApp({ config, endpoints: internalEndpoints, version: undefined, deps });
  const apps = new Map<ApiVersion, OpenAPIHono<AppEnv>>();
  const runtime: Runtime = {
    config,
    deps,
    enabled: new Set(Object.values(enabledVersions(config.brig.optSettings.setDisabledAPIVersions)).flat()),
    internalApp,
    sternApp: buildApiApp({
      config,
      endpoints: sternEndpoints(intraVia(internalApp, (v) => runtime.versionApp(v as ApiVersion))),
      version: undefined,
      deps,
    }),
    versionApp: (v) => {
      let app = apps.get(v);
      if (!app) {
        const endpoints = publicEndpoints.filter((e) => existsIn(e, v));
        app = buildApiApp({ config, endpoints, version: v, deps });
        mountDocs(app, v, internalApp);
        apps.set(v, app);
      }
      return app;
    },
  };
  return runtime;
}

let cache:
  | { source: string | undefined; removalKeys: string | undefined; files: string | undefined; result: RuntimeResult }
  | undefined;

/** The secrets the configuration needs: the files it names and, with MLS on, a removal key for every signature scheme. */
function secretProblems(env: Env, config: Config): Problem[] {
  const problems = fileProblems(env, config);
  if (config.gundeck.aws !== undefined && !(env.SNS_ACCESS_KEY_ID && env.SNS_SECRET_ACCESS_KEY))
    problems.push({
      file: 'gundeck.yaml',
      path: 'aws',
      message: 'native push needs the secrets SNS_ACCESS_KEY_ID and SNS_SECRET_ACCESS_KEY',
    });
  if (!config.brig.optSettings.setEnableMLS) return problems;
  const keys = removalKeys(env.MLS_REMOVAL_KEYS);
  if (typeof keys === 'string')
    problems.push({ file: 'galley.yaml', path: 'settings.mlsPrivateKeyPaths', message: keys });
  return problems;
}

/** Parses and validates the configuration once per isolate; never serves on an invalid one. */
export function runtimeFor(env: Env): RuntimeResult {
  keepFederatorToken(env);
  if (
    cache &&
    cache.source === env.SVC_CONFIG &&
    cache.removalKeys === env.MLS_REMOVAL_KEYS &&
    cache.files === env.SVC_FILES
  )
    return cache.result;
  const parsed = parseTexts(env.SVC_CONFIG);
  let result: RuntimeResult;
  if ('problem' in parsed) {
    result = { ok: false, problems: [parsed.problem] };
  } else {
    const loaded = loadConfig(parsed.texts);
    for (const w of loaded.warnings) log('warn', formatProblem(w));
    const problems = loaded.ok ? secretProblems(env, loaded.config) : loaded.problems;
    result =
      loaded.ok && problems.length === 0 ? { ok: true, runtime: buildRuntime(loaded.config) } : { ok: false, problems };
  }
  if (!result.ok) log('error', 'invalid configuration', { problems: result.problems.map(formatProblem) });
  cache = { source: env.SVC_CONFIG, removalKeys: env.MLS_REMOVAL_KEYS, files: env.SVC_FILES, result };
  return result;
}
