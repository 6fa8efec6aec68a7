import type { GroupClient } from '../../../shared/mls/delivery.js';
import type { Delivery, RosterAddress, RosterClient } from '../../../shared/notifications/types.js';
import type { Write } from '../../db/conversation-db.js';
import type { GroupSend, NotificationShards } from '../../notification-shards.js';
import type { ConversationDb } from '../../db/conversation-db.js';
import type { GroupRow } from './group-row.js';
import { rosterKeptStore } from './roster-kept-store.js';

type Share = Pick<RosterAddress, 'seed' | 'change'>;

const rosterClient = (c: GroupClient): RosterClient => [c.user, c.client];

/**
 * A group's messages to its own clients, addressed to the roster each notification object keeps
 * of the group (see RosterAddress): a message names the group and its sender, not its thousands
 * of recipients, and a commit carries only the clients it adds and removes, to the objects that
 * hold them. The first message sent so seeds every object's roster, once, and `writes` then hold
 * the record that the rosters are kept, for the message's transaction. Remote clients are not in
 * any roster: their backends get the group's messages.
 */
export class GroupRoster {
  readonly writes: Write[] = [];

  constructor(
    private readonly db: ConversationDb,
    private readonly shards: NotificationShards,
    private readonly group: GroupRow,
    private readonly localDomain: string,
  ) {}

  private local(clients: Iterable<GroupClient>): GroupClient[] {
    return [...clients].filter((c) => c.domain === this.localDomain);
  }

  /** The group's local clients, each with its user's notification object. */
  private async placed(): Promise<Array<[GroupClient, string]>> {
    const clients = this.local(this.group.leaves.values());
    const objectOf = await this.shards.objectsOf([...new Set(clients.map((c) => c.user))]);
    return clients.map((c) => [c, objectOf.get(c.user)!]);
  }

  /** Each notification object's count of the group's local clients, found once per group. */
  private async objects(placed?: Array<[GroupClient, string]>): Promise<Map<string, number>> {
    if (this.group.objects !== undefined) return this.group.objects;
    const counts = new Map<string, number>();
    for (const [, name] of placed ?? (await this.placed())) counts.set(name, (counts.get(name) ?? 0) + 1);
    this.group.objects = counts;
    return counts;
  }

  /**
   * `delivery` (the group's channel and the message) to the group's clients but `sender`, then
   * the roster changed by `change` (a commit's added and removed leaves).
   */
  async send(
    delivery: Delivery,
    sender: GroupClient | undefined,
    change?: { add: readonly GroupClient[]; remove: readonly GroupClient[] },
  ): Promise<GroupSend> {
    const placed = this.group.rosterKept ? undefined : await this.placed();
    const counts = await this.objects(placed);
    const shares = new Map<string, Share>();
    const shareOf = (name: string) => {
      let s = shares.get(name);
      if (s === undefined) shares.set(name, (s = {}));
      return s;
    };
    for (const name of counts.keys()) shareOf(name);
    if (placed !== undefined) this.seed(placed, shareOf);
    if (change !== undefined) {
      const add = this.local(change.add);
      const remove = this.local(change.remove);
      const objectOf = await this.shards.objectsOf([...new Set([...add, ...remove].map((c) => c.user))]);
      for (const [clients, key, step] of [
        [remove, 'remove', -1],
        [add, 'add', 1],
      ] as const)
        for (const c of clients) {
          const name = objectOf.get(c.user)!;
          const share = shareOf(name);
          share.change ??= { add: [], remove: [] };
          share.change[key].push(rosterClient(c));
          const n = (counts.get(name) ?? 0) + step;
          if (n > 0) counts.set(name, n);
          else counts.delete(name);
        }
    }
    const except = sender?.domain === this.localDomain ? rosterClient(sender) : undefined;
    return { delivery: { ...delivery, roster: { group: this.group.groupId!, except } }, objects: shares };
  }

  /** Every object's roster as the group is now (their first message of the group). */
  private seed(placed: Array<[GroupClient, string]>, shareOf: (name: string) => Share): void {
    for (const [c, name] of placed) (shareOf(name).seed ??= []).push(rosterClient(c));
    this.group.rosterKept = true;
    this.writes.push(rosterKeptStore.keep(this.db, this.group.groupId!));
  }
}
