import { describe, expect, it } from 'vitest';
import { cycles, importsOf, sourceFiles } from './source-graph.js';

const SRC = sourceFiles('src');

/** What a file in one layer imports from another, as `importer -> target`. */
function importsInto(fromDir: string, toDir: string, allowed: (importer: string, target: string) => boolean) {
  return SRC.filter((f) => f.startsWith(`${fromDir}/`)).flatMap((f) =>
    importsOf(f)
      .filter((t) => t.startsWith(`${toDir}/`) && !allowed(f, t))
      .map((t) => `${f} -> ${t}`),
  );
}

const never = () => false;

/** The edge reaches objects only through the shard client; index.ts exports the classes to workerd. */
const edgeMayImport = (importer: string, target: string) =>
  target === 'src/objects/notification-shards.ts' ||
  (importer === 'src/edge/index.ts' && /^src\/objects\/[A-Z]\w+\.ts$/.test(target));

describe('the layers', () => {
  it('src/shared imports neither the edge nor the objects', () => {
    expect([
      ...importsInto('src/shared', 'src/edge', never),
      ...importsInto('src/shared', 'src/objects', never),
    ]).toEqual([]);
  });

  it('the objects never import the edge', () => {
    expect(importsInto('src/objects', 'src/edge', never)).toEqual([]);
  });

  it('the edge uses the objects only through their stubs', () => {
    expect(importsInto('src/edge', 'src/objects', edgeMayImport)).toEqual([]);
  });

  it('has no import cycle, not even a type-only one', () => {
    expect(cycles(SRC)).toEqual([]);
  });
});
