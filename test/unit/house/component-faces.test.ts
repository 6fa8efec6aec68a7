import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const EDGE = join(ROOT, 'src', 'edge');

/** The components of the edge worker, each in `src/edge/<component>/`. */
const COMPONENTS = ['brig', 'galley', 'cargohold', 'gundeck', 'cannon', 'nginz', 'spar', 'proxy', 'stern'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The source files a module imports by relative path (imports, `import type`, `export ... from`, dynamic imports). */
function relativeImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')));
}

/** The component a path lies in, if any. */
const componentOf = (path: string) => COMPONENTS.find((c) => path.startsWith(`src/edge/${c}/`));

/** An import reaching into another component past its face (`src/edge/routes.ts` collects their routes). */
function reachesIn(importer: string, target: string): boolean {
  const component = componentOf(target);
  if (component === undefined || component === componentOf(importer)) return false;
  if (target === `src/edge/${component}/face.ts`) return false;
  return !(importer === 'src/edge/routes.ts' && target === `src/edge/${component}/routes.ts`);
}

describe('the house', () => {
  it('lets code outside a component reach it only through its face', () => {
    const offences = sourceFiles(EDGE).flatMap((file) => {
      const importer = relative(ROOT, file);
      return relativeImports(file)
        .map((target) => relative(ROOT, target))
        .filter((target) => reachesIn(importer, target))
        .map((target) => `${importer} -> ${target}`);
    });
    expect(offences).toEqual([]);
  });
});
