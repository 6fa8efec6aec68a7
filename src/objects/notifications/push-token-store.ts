import type { PushAddress, Transport } from '../../shared/notifications/native-push.js';

interface Row extends Record<string, SqlStorageValue> {
  user: string;
  client: string;
  transport: string;
  app: string;
  token: string;
  endpoint: string;
  connection: string;
}

const address = (r: Row): PushAddress => ({
  transport: r.transport as Transport,
  app: r.app,
  token: r.token,
  client: r.client,
  endpoint: r.endpoint,
  connection: r.connection,
});

/**
 * The native push addresses of the shard's users (wire's `user_push`). Every append asks whether
 * its recipients have any, so all of them are held in memory once read: most users have none,
 * and a mobile device has one or two.
 */
export class PushTokenStore {
  private byUser: Map<string, PushAddress[]> | undefined;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS push_tokens (
      user TEXT NOT NULL, client TEXT NOT NULL, transport TEXT NOT NULL, app TEXT NOT NULL,
      token TEXT NOT NULL, endpoint TEXT NOT NULL, connection TEXT NOT NULL,
      PRIMARY KEY (user, client, transport, app)) WITHOUT ROWID`);
  }

  of(user: string): readonly PushAddress[] {
    if (this.byUser === undefined) {
      this.byUser = new Map();
      for (const r of this.sql.exec<Row>('SELECT * FROM push_tokens').toArray()) this.remember(r.user, address(r));
    }
    return this.byUser.get(user) ?? [];
  }

  /**
   * Registers an address; the one a client had for the same transport and app is replaced and
   * returned (its gateway endpoint is to be released), unless it is the same endpoint.
   */
  add(user: string, a: PushAddress): PushAddress[] {
    const replaced = this.of(user).filter((o) => sameSlot(o, a) && o.endpoint !== a.endpoint);
    this.sql.exec(
      'INSERT OR REPLACE INTO push_tokens (user, client, transport, app, token, endpoint, connection) VALUES (?, ?, ?, ?, ?, ?, ?)',
      user,
      a.client,
      a.transport,
      a.app,
      a.token,
      a.endpoint,
      a.connection,
    );
    this.set(user, [...this.of(user).filter((o) => !sameSlot(o, a)), a]);
    return replaced;
  }

  /** The caller's transaction failed: what is held in memory is read again when next needed. */
  discard(): void {
    this.byUser = undefined;
  }

  /** Removes the user's addresses that match; returns them. */
  remove(user: string, matches: (a: PushAddress) => boolean): PushAddress[] {
    const gone = this.of(user).filter(matches);
    for (const a of gone)
      this.sql.exec(
        'DELETE FROM push_tokens WHERE user = ? AND client = ? AND transport = ? AND app = ?',
        user,
        a.client,
        a.transport,
        a.app,
      );
    if (gone.length > 0)
      this.set(
        user,
        this.of(user).filter((a) => !gone.includes(a)),
      );
    return gone;
  }

  private set(user: string, list: PushAddress[]): void {
    if (list.length === 0) this.byUser!.delete(user);
    else this.byUser!.set(user, list);
  }

  private remember(user: string, a: PushAddress): void {
    const list = this.byUser!.get(user);
    if (list === undefined) this.byUser!.set(user, [a]);
    else list.push(a);
  }
}

const sameSlot = (x: PushAddress, y: PushAddress) =>
  x.client === y.client && x.transport === y.transport && x.app === y.app;
