/**
 * The marks of a send whose record is kept outside the notification objects (a change's pending
 * effects): the sender and the first of the MARKS_PER_SEND numbers its parts take. The parts come
 * out of the same deliveries in the same order every time, so a send made again carries the same
 * marks and each object stores it once (see Delivery.from).
 */
export type SendMark = [source: string, first: number];

/** Parts (a delivery split by notification object, and chunked) one send may have. */
export const MARKS_PER_SEND = 256;
/** Sends one change's effects may make, together. */
const SENDS_PER_CHANGE = 4096;

/**
 * The marks of the sends of pending row `id`'s effects, handed out in the order the effects make
 * their sends (which is the same each time they are carried out). Ids stay below 2^33 for marks
 * to be exact. Each partition of the directory numbers its rows itself, so its marks have a
 * source of their own (partition 0 keeps the word of the single database).
 */
export function effectMarks(id: number, partition = 0): () => SendMark {
  const source = partition === 0 ? 'effects' : `effects-${partition}`;
  let sends = 0;
  return () => {
    if (sends >= SENDS_PER_CHANGE) throw new Error('too many sends in one change');
    return [source, (id * SENDS_PER_CHANGE + sends++) * MARKS_PER_SEND];
  };
}
