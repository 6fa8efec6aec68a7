import { chunked } from '../../shared/chunked.js';

/**
 * D1 binds at most 100 parameters per statement: queries over many ids run in chunks.
 * `perItem` is how many parameters one item binds.
 */
export async function inChunks<T, R>(
  items: readonly T[],
  perItem: number,
  run: (chunk: T[]) => Promise<R[]>,
): Promise<R[]> {
  const size = Math.max(1, Math.floor(90 / perItem));
  const out: R[] = [];
  for (const chunk of chunked(items, size)) out.push(...(await run(chunk)));
  return out;
}
