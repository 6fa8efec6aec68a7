import type { DeliveryEntry } from '../../shared/notifications/types.js';

/** Where a row's entries start; `h` and `t` come before it. */
export const TO_KEY = ',"to":[';

/**
 * A user's entries in a row's text, found by search rather than by parsing the row. Every text in
 * a row (head, tail, middles) is a JSON string, whose quotes are escaped, so an unescaped
 * `["<user id>",` can only be the start of that user's entry (client ids are shorter than user
 * ids, so a clients list cannot match), and `"],[` or `"]]` is its end, unless a middle's text
 * holds one: the cut then falls inside a string, which does not parse, and the row is parsed whole.
 */
export function entriesOf(body: string, user: string): DeliveryEntry[] {
  const start = `["${user}",`;
  const out: DeliveryEntry[] = [];
  try {
    for (let at = body.indexOf(start); at >= 0; at = body.indexOf(start, at + start.length)) {
      let end = body.indexOf('"],[', at);
      if (end < 0) end = body.indexOf('"]]', at);
      out.push(JSON.parse(body.slice(at, end + 2)) as DeliveryEntry);
    }
    return out;
  } catch {
    // A middle whose text holds `"],[` (escaped) cut the entry inside a string: parse it all.
    return (JSON.parse(body) as { to: DeliveryEntry[] }).to.filter((e) => e[0] === user);
  }
}
