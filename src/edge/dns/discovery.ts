import { log } from '../../shared/log.js';
/** What a discovery keeps: the newest non-empty answer and when it was looked up. */
interface Entry {
  value: unknown[] | undefined;
  checkedAt: number;
}

const entries = new Map<string, Entry>();

/**
 * A list looked up in DNS and kept by this isolate for `intervalSeconds`, as wire's discovery loops
 * keep theirs: a lookup that fails or finds nothing leaves the last list in place; `undefined`
 * until one found something. A request that finds the list due looks it up itself (a lookup
 * started by another request cannot be awaited: its I/O belongs to that request).
 */
export async function discovered<T>(
  key: string,
  intervalSeconds: number,
  lookup: () => Promise<T[]>,
): Promise<T[] | undefined> {
  const entry = entries.get(key) ?? { value: undefined, checkedAt: Number.NEGATIVE_INFINITY };
  entries.set(key, entry);
  if (Date.now() - entry.checkedAt >= intervalSeconds * 1000) {
    try {
      const found = await lookup();
      if (found.length > 0) entry.value = found;
    } catch (err) {
      log('warn', `DNS discovery ${key}: ${(err as Error).message}`);
    }
    entry.checkedAt = Date.now();
  }
  return entry.value as T[] | undefined;
}
