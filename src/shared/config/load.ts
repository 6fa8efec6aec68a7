import { parseDocument } from 'yaml';
import { COMPONENT_SCHEMAS, COMPONENTS, fileOf, type Component, type Config } from './components.js';
import { crossFileProblems } from './cross-rules.js';
import { keyPath, type Problem } from './problems.js';

/** The raw text of each component file, keyed by file name (`brig.yaml`, ...). */
export type ConfigTexts = Record<string, string | undefined>;

export type LoadResult =
  | { ok: true; config: Config; warnings: Problem[] }
  | { ok: false; problems: Problem[]; warnings: Problem[] };

function parseYaml(file: string, text: string): { value?: unknown; problems: Problem[] } {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0)
    return { problems: doc.errors.map((e) => ({ file, path: '', message: `invalid YAML: ${e.message}` })) };
  const value: unknown = doc.toJS();
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problems: [{ file, path: '', message: 'must be a YAML mapping' }] };
  return { value, problems: [] };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function loadComponent<C extends Component>(
  component: C,
  text: string | undefined,
): { value?: Config[C]; problems: Problem[] } {
  const file = fileOf(component);
  if (text === undefined) return { problems: [{ file, path: '', message: 'file is missing' }] };
  const yaml = parseYaml(file, text);
  if (yaml.problems.length > 0) return { problems: yaml.problems };
  const result = COMPONENT_SCHEMAS[component].safeParse(yaml.value);
  if (result.success) return { value: result.data as Config[C], problems: [] };
  return {
    problems: result.error.issues.map((i) => ({
      file,
      path: keyPath(i.path),
      message: i.code !== 'custom' && valueAt(yaml.value, i.path) === undefined ? 'is required' : i.message,
    })),
  };
}

function warningsOf(c: Partial<Config>): Problem[] {
  const warnings: Problem[] = [];
  if (c.brig?.optSettings.setDefaultLocale !== undefined)
    warnings.push({
      file: 'brig.yaml',
      path: 'optSettings.setDefaultLocale',
      message: 'deprecated and ignored; if it was not EN, rename it to setDefaultTemplateLocale',
    });
  const store = c.cargohold?.objstore;
  if (store?.multiIngress !== undefined && store.downloadEndpoint !== undefined)
    warnings.push({
      file: 'cargohold.yaml',
      path: 'objstore.downloadEndpoint',
      message: 'ignored because objstore.multiIngress is set',
    });
  const fed = c.federator?.optSettings;
  if (fed && !fed.useSystemCAStore && fed.remoteCAStore === undefined)
    warnings.push({
      file: 'federator.yaml',
      path: 'optSettings',
      message: 'neither useSystemCAStore nor remoteCAStore: every outbound federation call will fail TLS',
    });
  return warnings;
}

/** Parses and validates every component file; reports all problems at once. */
export function loadConfig(texts: ConfigTexts): LoadResult {
  const parsed: Partial<Config> = {};
  const problems: Problem[] = [];
  for (const component of COMPONENTS) {
    const r = loadComponent(component, texts[fileOf(component)]);
    problems.push(...r.problems);
    if (r.value !== undefined) (parsed as Record<Component, unknown>)[component] = r.value;
  }
  problems.push(...crossFileProblems(parsed));
  const warnings = warningsOf(parsed);
  if (problems.length > 0) return { ok: false, problems, warnings };
  if (parsed.brig) delete parsed.brig.optSettings.setDefaultLocale;
  return { ok: true, config: parsed as Config, warnings };
}
