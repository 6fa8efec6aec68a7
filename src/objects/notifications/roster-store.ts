import type { DeliveryEntry, RosterAddress, RosterClient } from '../../shared/notifications/types.js';

/** A group's roster here: each user's clients in the group (arrays replaced, never changed in place). */
type Roster = Map<string, readonly string[]>;

/**
 * The rosters of the groups whose messages come addressed to them (see RosterAddress): which of
 * this object's users' clients are in each group. A group's roster is read once per wake-up and
 * then kept up to date with every message's change, in the message's transaction.
 */
export class RosterStore {
  private readonly rosters = new Map<string, Roster>();

  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS group_rosters (
      grp TEXT NOT NULL,
      user TEXT NOT NULL,
      client TEXT NOT NULL,
      PRIMARY KEY (grp, user, client)
    ) WITHOUT ROWID`);
  }

  private of(group: string): Roster {
    let roster = this.rosters.get(group);
    if (roster === undefined) {
      roster = new Map();
      for (const r of this.sql.exec<{ user: string; client: string }>(
        'SELECT user, client FROM group_rosters WHERE grp = ?',
        group,
      ))
        add(roster, r.user, r.client);
      this.rosters.set(group, roster);
    }
    return roster;
  }

  /** The recipients of a message so addressed: each user's clients in the roster (after its seed), but the sender's. */
  entries(a: RosterAddress): DeliveryEntry[] {
    if (a.seed !== undefined) this.seed(a.group, a.seed);
    const out: DeliveryEntry[] = [];
    for (const [user, clients] of this.of(a.group)) {
      const to = a.except?.[0] === user ? clients.filter((c) => c !== a.except![1]) : clients;
      if (to.length > 0) out.push([user, to as string[], '']);
    }
    return out;
  }

  /** The message's change, for the messages after it. */
  after(a: RosterAddress): void {
    if (a.change === undefined) return;
    const roster = this.of(a.group);
    for (const [user, client] of a.change.remove) {
      this.sql.exec('DELETE FROM group_rosters WHERE grp = ? AND user = ? AND client = ?', a.group, user, client);
      const left = roster.get(user)?.filter((c) => c !== client) ?? [];
      if (left.length === 0) roster.delete(user);
      else roster.set(user, left);
    }
    for (const [user, client] of a.change.add) {
      this.sql.exec('INSERT OR IGNORE INTO group_rosters (grp, user, client) VALUES (?, ?, ?)', a.group, user, client);
      add(roster, user, client);
    }
  }

  private seed(group: string, clients: readonly RosterClient[]): void {
    this.sql.exec('DELETE FROM group_rosters WHERE grp = ?', group);
    const roster: Roster = new Map();
    for (const [user, client] of clients) {
      this.sql.exec('INSERT OR IGNORE INTO group_rosters (grp, user, client) VALUES (?, ?, ?)', group, user, client);
      add(roster, user, client);
    }
    this.rosters.set(group, roster);
  }

  /** The caller's transaction failed: what changed in memory is read again. */
  discard(): void {
    this.rosters.clear();
  }
}

function add(roster: Roster, user: string, client: string): void {
  const clients = roster.get(user) ?? [];
  if (!clients.includes(client)) roster.set(user, [...clients, client]);
}
