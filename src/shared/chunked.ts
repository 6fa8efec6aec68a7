/** The items in consecutive slices of at most `size`. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Objects asked at once: a round of subrequests well inside what one invocation may have open. */
const FAN_OUT = 50;

/** `ask` of each item, FAN_OUT at a time; the answers in the items' order. */
export async function askEach<T, R>(items: readonly T[], ask: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = [];
  for (const round of chunked(items, FAN_OUT)) answers.push(...(await Promise.all(round.map(ask))));
  return answers;
}
