import { fnv1a } from '../hash.js';

/**
 * The directory's partitions (docs/architecture.md, "The directory is partitioned"). A key (a user
 * id, a team id, a name) hashes to one of SLOTS slots, fixed for a deployment's life; each D1
 * database holds a contiguous range of slots, so adding databases moves whole slots and never
 * hashes a key anew. The bindings are `DB` (partition 0, which also holds what there is one of per
 * deployment) and `DB_1` … `DB_{P-1}`.
 */
export const SLOTS = 256;

export const slotOf = (key: string): number => fnv1a(key) % SLOTS;

/** Which of `count` partitions holds a slot. */
export const partitionOfSlot = (slot: number, count: number): number => Math.floor((slot * count) / SLOTS);

/** A new random uuid (v4) whose slot is `slot`: what is made for a team is made in its slot. */
export function uuidInSlot(slot: number): string {
  for (;;) {
    const id = crypto.randomUUID();
    if (slotOf(id) === slot) return id;
  }
}

/** Which of the partitions holds the key's slot. */
export const partitionOf = <T>(partitions: readonly T[], key: string): T =>
  partitions[partitionOfSlot(slotOf(key), partitions.length)]!;

/** The partitions' bindings: `DB`, then `DB_1`, `DB_2`, … as far as they go. */
export function partitionBindings<T>(bindings: Readonly<Record<string, unknown>>, main: T): T[] {
  const all = [main];
  for (let i = 1; bindings[`DB_${i}`] !== undefined; i++) all.push(bindings[`DB_${i}`] as T);
  return all;
}
