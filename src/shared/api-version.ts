/**
 * Client API versions (seed "Versioning"): v0..v8 are supported (frozen), v9 is in development.
 * A route declares the range it exists in; configuration may disable versions.
 */
export const API_VERSIONS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

const SUPPORTED_VERSIONS: readonly ApiVersion[] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
const DEVELOPMENT_VERSIONS: readonly ApiVersion[] = [9];

/** An entry of `disabledAPIVersions`: an explicit version or the word `development`. */
export type DisabledVersion = ApiVersion | 'development';

export function isApiVersion(n: number): n is ApiVersion {
  return (API_VERSIONS as readonly number[]).includes(n);
}

/** Parses the YAML spelling of a disabled version: `v3` or `development`. */
export function parseDisabledVersion(word: string): DisabledVersion | undefined {
  if (word === 'development') return 'development';
  const m = /^v(\d+)$/.exec(word);
  if (!m) return undefined;
  const n = Number(m[1]);
  return isApiVersion(n) ? n : undefined;
}

export interface EnabledVersions {
  supported: ApiVersion[];
  development: ApiVersion[];
}

export function enabledVersions(disabled: readonly DisabledVersion[]): EnabledVersions {
  const off = new Set<ApiVersion>();
  for (const d of disabled) {
    if (d === 'development') for (const v of DEVELOPMENT_VERSIONS) off.add(v);
    else off.add(d);
  }
  return {
    supported: SUPPORTED_VERSIONS.filter((v) => !off.has(v)),
    development: DEVELOPMENT_VERSIONS.filter((v) => !off.has(v)),
  };
}
