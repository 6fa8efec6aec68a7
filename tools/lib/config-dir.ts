import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COMPONENTS, fileOf, type ConfigTexts } from '../../src/shared/config/index.js';

export function configDir(arg?: string): string {
  return resolve(arg ?? process.env.CONFIG_DIR ?? 'config');
}

/** Reads every component file of a configuration folder; a missing file stays undefined. */
export function readConfigTexts(dir: string): ConfigTexts {
  const texts: ConfigTexts = {};
  for (const c of COMPONENTS) {
    const path = join(dir, fileOf(c));
    texts[fileOf(c)] = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  }
  return texts;
}
