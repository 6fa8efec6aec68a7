import { partitionBindings, partitionOfSlot, slotOf } from '../../shared/db/partitions.js';
import { registerDirectory } from './client.js';

/**
 * The D1 databases of the directory: `main` holds what there is one of per deployment (settings,
 * transient rows), `of(key)` the partition of a key's slot (see shared/db/partitions.ts). A
 * deployment of one database has `main` as its only partition.
 */
export interface Directory {
  readonly main: D1Database;
  readonly all: readonly D1Database[];
  of(key: string): D1Database;
}

const directories = new WeakMap<Env, Directory>();

export function directoryOf(env: Env): Directory {
  let directory = directories.get(env);
  if (directory === undefined) {
    const all = partitionBindings<D1Database>(env as unknown as Record<string, unknown>, env.DB);
    registerDirectory(all);
    directory = { main: env.DB, all, of: (key) => all[partitionOfSlot(slotOf(key), all.length)]! };
    directories.set(env, directory);
  }
  return directory;
}
