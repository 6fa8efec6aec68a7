/**
 * Each user's clients that consume no queue (legacy clients: `/await` and `GET /notifications`),
 * as brig reports them when clients are added: gundeck asks brig for them on every push to split it
 * between the queues and the stream (see routing.ts). A user without a row is not known: their
 * clients were all added before this table, and what is for them is stored as it always was.
 */
export class LegacyClientStore {
  /** Read once per wake-up: every append needs its users'. */
  private cached: Map<string, string[]> | undefined;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS legacy_clients (
      user TEXT PRIMARY KEY,
      clients TEXT NOT NULL
    ) WITHOUT ROWID`);
  }

  /** The user's legacy clients; undefined if not known. */
  of(user: string): readonly string[] | undefined {
    if (this.cached === undefined) {
      this.cached = new Map();
      for (const r of this.sql.exec<{ user: string; clients: string }>('SELECT user, clients FROM legacy_clients'))
        this.cached.set(r.user, JSON.parse(r.clients) as string[]);
    }
    return this.cached.get(user);
  }

  /** A legacy client was added; `others` are the user's other legacy clients brig has, for a user not known yet. */
  add(user: string, client: string, others: readonly string[]): void {
    const known = this.of(user);
    if (known === undefined) this.save(user, [...new Set([...others, client])]);
    else if (!known.includes(client)) this.save(user, [...known, client]);
  }

  /** The client consumes a queue; `others` as in add (undefined: brig's were not read). */
  consuming(user: string, client: string, others: readonly string[] | undefined): void {
    const known = this.of(user) ?? others;
    if (known !== undefined)
      this.save(
        user,
        known.filter((c) => c !== client),
      );
  }

  remove(user: string, client: string): void {
    const known = this.of(user);
    if (known?.includes(client))
      this.save(
        user,
        known.filter((c) => c !== client),
      );
  }

  forget(user: string): void {
    this.sql.exec('DELETE FROM legacy_clients WHERE user = ?', user);
    this.cached?.delete(user);
  }

  private save(user: string, clients: string[]): void {
    this.sql.exec(
      'INSERT INTO legacy_clients (user, clients) VALUES (?, ?) ON CONFLICT (user) DO UPDATE SET clients = excluded.clients',
      user,
      JSON.stringify(clients),
    );
    this.cached?.set(user, clients);
  }
}
