import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cyclesOf, importsOf, sourceFiles } from './source-graph.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The services of the edge worker, each in `src/edge/<component>/`, used by others only through its face. */
const COMPONENTS = [
  'brig',
  'galley',
  'cargohold',
  'gundeck',
  'cannon',
  'nginz',
  'spar',
  'proxy',
  'stern',
  'background-worker',
  'bots',
];
/** What every component builds on: the API package (schemas, errors, access interfaces), stores, events, effects. */
const PLATFORM = ['api', 'auth', 'db', 'dns', 'docs', 'effects', 'events', 'federation', 'integrations', 'metrics'];

const FOLDERS = readdirSync(join(ROOT, 'src/edge'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const EDGE = sourceFiles('src/edge');

/** The folder of `src/edge` a file lies in; files at its top (the runtime's wiring) are `(top)`. */
const folderOf = (path: string) => (path.split('/').length > 3 ? path.split('/')[2]! : '(top)');

/** Folder-level imports as `from -> to`, with the files that make each one. */
function folderArrows(): Map<string, string[]> {
  const arrows = new Map<string, string[]>();
  for (const file of EDGE)
    for (const target of importsOf(file).filter((t) => t.startsWith('src/edge/'))) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from !== to) arrows.set(`${from} -> ${to}`, [...(arrows.get(`${from} -> ${to}`) ?? []), file]);
    }
  return arrows;
}

/** The folder graph as each folder's successors. */
function folderGraph(arrows: Map<string, string[]>): Map<string, string[]> {
  const next = new Map<string, string[]>(FOLDERS.map((f) => [f, []]));
  next.set('(top)', []);
  for (const arrow of arrows.keys()) {
    const [from, to] = arrow.split(' -> ') as [string, string];
    next.get(from)!.push(to);
  }
  return next;
}

/**
 * An import reaching into another component past its face. The top wiring may also import what a
 * component's folder offers the runtime: its routes, its access implementation, its jobs.
 */
function reachesIn(importer: string, target: string): boolean {
  const component = folderOf(target);
  if (!COMPONENTS.includes(component) || component === folderOf(importer)) return false;
  if (target === `src/edge/${component}/face.ts`) return false;
  const offered = /^src\/edge\/[\w-]+\/(routes|[\w-]+-access|jobs|bot-events)\.ts$/.test(target);
  return !(folderOf(importer) === '(top)' && offered);
}

/**
 * How many sibling folders one subfolder of a component may import. Each number is the most any
 * subfolder imports today: they only go down (brig's accounts/ orchestrates account creation and
 * deletion across 13 of brig's folders; galley was 7 before its conversation updates had one path).
 */
const SIBLING_BUDGET: Record<string, number> = { brig: 13, galley: 5, spar: 3 };

/** For each subfolder of a component, the sibling subfolders it imports. */
function siblingImports(component: string): Map<string, Set<string>> {
  const sub = (path: string) => (path.split('/').length > 4 ? path.split('/')[3]! : undefined);
  const out = new Map<string, Set<string>>();
  for (const file of EDGE.filter((f) => folderOf(f) === component && sub(f) !== undefined))
    for (const target of importsOf(file).filter((t) => folderOf(t) === component)) {
      const [from, to] = [sub(file)!, sub(target)];
      if (to !== undefined && to !== from) out.set(from, new Set([...(out.get(from) ?? []), to]));
    }
  return out;
}

describe('the components', () => {
  it('every folder of src/edge is a component or part of the platform', () => {
    expect(FOLDERS.filter((f) => !COMPONENTS.includes(f) && !PLATFORM.includes(f))).toEqual([]);
  });

  it('import each other without a cycle, not even through the platform', () => {
    expect(cyclesOf(folderGraph(folderArrows()))).toEqual([]);
  });

  it('the platform imports no component', () => {
    const arrows = [...folderArrows()].filter(([arrow]) => {
      const [from, to] = arrow.split(' -> ') as [string, string];
      return PLATFORM.includes(from) && COMPONENTS.includes(to);
    });
    expect(arrows).toEqual([]);
  });

  it('keep their subfolders within a budget of siblings each imports', () => {
    const over = COMPONENTS.flatMap((component) =>
      [...siblingImports(component)]
        .filter(([, siblings]) => siblings.size > (SIBLING_BUDGET[component] ?? 3))
        .map(([folder, siblings]) => `${component}/${folder} imports ${[...siblings].sort().join(', ')}`),
    );
    expect(over).toEqual([]);
  });

  it('reach another component only through its face', () => {
    const offences = EDGE.flatMap((file) =>
      importsOf(file)
        .filter((target) => reachesIn(file, target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(offences).toEqual([]);
  });
});
