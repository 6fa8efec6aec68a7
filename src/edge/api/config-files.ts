import { namedFiles, type Config, type Problem } from '../../shared/config/index.js';

let parsed: { source: string | undefined; files: ReadonlyMap<string, string> } | undefined;

/** SVC_FILES (configured path → text), parsed once per isolate; not JSON reads as no files. */
function filesOf(env: { SVC_FILES?: string }): ReadonlyMap<string, string> {
  if (parsed !== undefined && parsed.source === env.SVC_FILES) return parsed.files;
  let files = new Map<string, string>();
  try {
    const value: unknown = JSON.parse(env.SVC_FILES ?? '{}');
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      files = new Map(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    // reported by fileProblems
  }
  parsed = { source: env.SVC_FILES, files };
  return files;
}

/** The text of a file the configuration names (the runtime refuses to serve while one is missing). */
function configFile(env: { SVC_FILES?: string }, path: string): string {
  const text = filesOf(env).get(path);
  if (text === undefined) throw new Error(`SVC_FILES holds no ${path}`);
  return text;
}

const derived = new WeakMap<(text: string) => unknown, Map<string, unknown>>();

/**
 * What `derive` makes of a configured file (parsed lists, imported keys): made once per isolate
 * and text, not per request. `derive` must be one function for the life of the isolate.
 */
export function fromConfigFile<T>(env: { SVC_FILES?: string }, path: string, derive: (text: string) => T): T {
  const text = configFile(env, path);
  let byText = derived.get(derive);
  if (byText === undefined) derived.set(derive, (byText = new Map()));
  if (!byText.has(text)) byText.set(text, derive(text));
  return byText.get(text) as T;
}

/** The named files SVC_FILES lacks. */
export function fileProblems(env: { SVC_FILES?: string }, config: Config): Problem[] {
  const files = filesOf(env);
  return namedFiles(config)
    .filter((f) => !files.has(f.path))
    .map((f) => {
      const [file = '', path = ''] = f.setting.split(' ');
      return { file, path, message: `SVC_FILES holds no ${f.path} (npm run -s config:files)` };
    });
}
