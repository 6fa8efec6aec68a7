/** One refusal (or warning) of the configuration, naming the file, the key path and the reason. */
export interface Problem {
  file: string;
  path: string;
  message: string;
}

export function keyPath(segments: readonly PropertyKey[]): string {
  return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? String(s) : `.${String(s)}`)).join('');
}

export function formatProblem(p: Problem): string {
  return p.path === '' ? `${p.file}: ${p.message}` : `${p.file}: ${p.path}: ${p.message}`;
}
