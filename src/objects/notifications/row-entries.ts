/**
 * Who gets an entry, as a row keeps it: its clients (null: all of the user's), alike for the queues
 * and for `GET /notifications`; or, where gundeck would store it otherwise (see routing.ts), both:
 * `c` for the queues, `n` for `GET /notifications` (absent: not there at all).
 */
export type Audience = string[] | null | { c: string[] | null; n?: readonly string[] | null };

export type StoredEntry = [user: string, audience: Audience, middle: string];

/** Which of a user's clients see an entry: `queue`, in their queues; `list`, in `GET /notifications`. */
export type View = 'queue' | 'list';

/** The clients of the view that see an entry (null: all); undefined: none, not even without a client. */
export function clientsOf(a: Audience, view: View): readonly string[] | null | undefined {
  if (a === null || Array.isArray(a)) return a;
  return view === 'queue' ? a.c : a.n;
}

/** The audience to store for clients whose `GET /notifications` view is `listed` (see Route). */
export function audience(clients: string[] | null, listed: readonly string[] | null | undefined): Audience {
  if (listed === clients) return clients;
  return listed === undefined ? { c: clients } : { c: clients, n: listed };
}

/** Where a row's entries start; `h` and `t` come before it. */
export const TO_KEY = ',"to":[';

/**
 * A user's entries in a row's text, found by search rather than by parsing the row. Every text in
 * a row (head, tail, middles) is a JSON string, whose quotes are escaped, so an unescaped
 * `["<user id>",` can only be the start of that user's entry (client ids are shorter than user
 * ids, so a clients list cannot match), and `"],[` or `"]]` is its end (an audience object holds
 * neither), unless a middle's text holds one: the cut then falls inside a string, which does not
 * parse, and the row is parsed whole.
 */
export function entriesOf(body: string, user: string): StoredEntry[] {
  const start = `["${user}",`;
  const out: StoredEntry[] = [];
  try {
    for (let at = body.indexOf(start); at >= 0; at = body.indexOf(start, at + start.length)) {
      let end = body.indexOf('"],[', at);
      if (end < 0) end = body.indexOf('"]]', at);
      out.push(JSON.parse(body.slice(at, end + 2)) as StoredEntry);
    }
    return out;
  } catch {
    // A middle whose text holds `"],[` (escaped) cut the entry inside a string: parse it all.
    return (JSON.parse(body) as { to: StoredEntry[] }).to.filter((e) => e[0] === user);
  }
}
