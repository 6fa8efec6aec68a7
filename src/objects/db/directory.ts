import { partitionBindings } from '../../shared/db/partitions.js';

/** The directory's D1 partitions as an object's bindings hold them (`DB`, `DB_1`, …). */
export const directoryOf = (env: { DB: D1Database }): D1Database[] =>
  partitionBindings<D1Database>(env as unknown as Record<string, unknown>, env.DB);
