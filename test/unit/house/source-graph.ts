import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The TypeScript files under a folder of the repository (`src`, `src/edge`, ...), as repository paths. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

export const readSource = (path: string) => readFileSync(join(ROOT, path), 'utf8');

// `import … from '…'`, `export … from '…'`, `import '…'` and type-level `import('…')`.
const SPECIFIER = /(?:\bfrom\s+|\bimport\s+|\bimport\()\s*'(\.{1,2}\/[^']+)'/g;

/** The repository files a source file imports, type-only imports included (relative imports only). */
export function importsOf(path: string): string[] {
  const text = readSource(path);
  return [...text.matchAll(SPECIFIER)].map((m) =>
    relative(ROOT, resolve(ROOT, dirname(path), m[1]!)).replace(/\.js$/, '.ts'),
  );
}

/** Every import cycle (as the list of files around it), found by depth-first search. */
export function cycles(files: readonly string[]): string[][] {
  return cyclesOf(new Map(files.map((f) => [f, importsOf(f)])));
}

/** Every cycle of a directed graph given as each node's successors (edges to unlisted nodes are ignored). */
export function cyclesOf(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    path.push(f);
    for (const g of edges.get(f) ?? []) {
      if (!edges.has(g)) continue;
      if (state.get(g) === 'open') found.push(path.slice(path.indexOf(g)));
      else if (state.get(g) === undefined) visit(g);
    }
    path.pop();
    state.set(f, 'done');
  };
  for (const f of edges.keys()) if (state.get(f) === undefined) visit(f);
  return found;
}
