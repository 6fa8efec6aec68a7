import { isApiVersion, type ApiVersion } from '../../shared/api-version.js';

/** How the first path segment places a request among the API versions (wire-server's rules). */
export type VersionedPath =
  | { kind: 'unversioned'; path: string }
  | { kind: 'versioned'; version: ApiVersion; path: string }
  /** `v` followed only by digits, but no version we know. */
  | { kind: 'unknown-version'; word: string }
  /** `/vN/i/...` and `/vN/api-internal/...`: internal APIs are not versioned. */
  | { kind: 'versioned-internal' };

const INTERNAL_DOCS = /^\/api-internal\/swagger(-ui(\/.*)?|\.json)$/;

export function splitVersion(pathname: string): VersionedPath {
  const m = /^\/(v\d*)(\/.*)?$/.exec(pathname);
  if (!m) return { kind: 'unversioned', path: pathname };
  const word = m[1]!;
  const rest = m[2] ?? '/';
  if (/^\/(i|api-internal)(\/|$)/.test(rest) && !INTERNAL_DOCS.test(rest)) return { kind: 'versioned-internal' };
  const n = word.length > 1 ? Number(word.slice(1)) : NaN;
  if (!isApiVersion(n)) return { kind: 'unknown-version', word };
  return { kind: 'versioned', version: n, path: rest };
}

/** Documentation is served for every known version, disabled ones included. */
export function servedWhenDisabled(path: string): boolean {
  return /^\/api\/swagger(-ui(\/.*)?|\.json)$/.test(path) || INTERNAL_DOCS.test(path);
}
