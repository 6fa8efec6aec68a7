import type {
  CommitRequest,
  DeliveryResult,
  GroupClient,
  GroupView,
  Leaving,
  MessageRequest,
  RemovalsSent,
  ResetRequest,
} from '../../../shared/mls/delivery.js';
import { conversationEvent } from '../../../shared/events/conversation-event.js';
import { nextGeneration } from '../../../shared/mls/group-id.js';
import { type RemovalKeys, removalKeys } from '../../../shared/mls/removal-keys.js';
import { fromBase64, toBase64 } from '../../../shared/base64.js';
import type { QualifiedRef } from '../../../shared/proteus/types.js';
import type { ChangeSinks } from '../commit-with-deliveries.js';
import type { ConversationDb, Write } from '../../db/conversation-db.js';
import { applyCommit } from './apply-commit.js';
import { clientKey, indexOf } from './group-index.js';
import type { GroupRow } from './group-row.js';
import { groupInfoOf, readGroup, resetStatements, subconversationsOf } from './group-store.js';
import { toUsers } from './fan-out.js';
import { postMessage } from './post-message.js';
import { proposeRemovals } from './removals.js';

type Work = (group: GroupRow) => Promise<{ result: DeliveryResult; group?: GroupRow | undefined }>;

/**
 * A conversation's MLS groups (its own and its subconversations'), as its object holds them: read
 * from the object's storage once, kept after each change, read again after a failure half-way. The caller orders
 * every call (the conversation's order).
 */
export class MlsGroups {
  private readonly cache = new Map<string, GroupRow>();

  constructor(
    private readonly env: Env,
    private readonly db: ConversationDb,
    private readonly sinks: ChangeSinks,
    /** Runs writes as one transaction of the object's storage. */
    private readonly writeTogether: (writes: readonly Write[]) => void,
  ) {}

  forget(): void {
    this.cache.clear();
  }

  private keys: RemovalKeys | undefined | null = null;

  /** The backend's removal keys, read from the configuration once (undefined when it has none). */
  private removalKeys(): RemovalKeys | undefined {
    if (this.keys === null) {
      const keys = removalKeys(this.env.MLS_REMOVAL_KEYS);
      this.keys = typeof keys === 'string' ? undefined : keys;
    }
    return this.keys;
  }

  private async run(conv: QualifiedRef, subconv: string | undefined, work: Work): Promise<DeliveryResult> {
    const key = subconv ?? '';
    const group = this.cache.get(key) ?? readGroup(this.db, conv, subconv);
    if (group === undefined) return { ok: false, refusal: 'noConversation' };
    this.cache.delete(key);
    const done = await work(group);
    this.cache.set(key, done.group ?? group);
    return done.result;
  }

  /** The group as it is: from the cache, or read (and kept). */
  private async current(conv: QualifiedRef, subconv: string | undefined): Promise<GroupRow | undefined> {
    const key = subconv ?? '';
    const group = this.cache.get(key) ?? readGroup(this.db, conv, subconv);
    if (group !== undefined) this.cache.set(key, group);
    return group;
  }

  /** What the edge reads of a group; undefined when the conversation is not here. */
  async view(conv: QualifiedRef, subconv: string | undefined): Promise<GroupView | undefined> {
    const group = await this.current(conv, subconv);
    if (group === undefined) return undefined;
    const leaves = [...group.leaves.values()].sort((a, b) => a.index - b.index);
    const { groupId, epoch, epochTimestamp, suite } = group;
    return {
      groupId,
      epoch,
      epochTimestamp,
      suite,
      clients: leaves.map(({ user, domain, client }) => ({ user, domain, client })),
    };
  }

  /** The GroupInfo of a group's current epoch; undefined before its first commit. */
  async groupInfo(conv: QualifiedRef, subconv: string | undefined): Promise<Uint8Array | undefined> {
    const groupId = (await this.current(conv, subconv))?.groupId;
    return groupId == null ? undefined : groupInfoOf(this.db, groupId);
  }

  /** The clients the given pending proposals add (refs not pending are the commit's to be refused for). */
  async proposedAdds(conv: QualifiedRef, subconv: string | undefined, refs: readonly string[]): Promise<GroupClient[]> {
    const proposals = (await this.current(conv, subconv))?.proposals;
    return refs.flatMap((ref) => {
      const effect = proposals?.get(ref)?.effect;
      return effect !== undefined && 'add' in effect ? [effect.add] : [];
    });
  }

  /** Whether any of these clients is in the group, when it is at `epoch`. */
  async holds(
    conv: QualifiedRef,
    subconv: string | undefined,
    epoch: number,
    clients: readonly GroupClient[],
  ): Promise<boolean> {
    const group = await this.current(conv, subconv);
    if (group === undefined || group.epoch !== epoch) return false;
    const { leafOf } = indexOf(group, conv.domain);
    return clients.some((c) => leafOf.has(clientKey(c)));
  }

  /** Applies a commit bundle; whether it changed the conversation's members or clients. */
  async commit(req: CommitRequest): Promise<{ result: DeliveryResult; changed: boolean }> {
    let changed = false;
    const result = await this.run(req.conv, req.subconv, async (group) => {
      const done = await applyCommit(this.db, this.sinks, this.removalKeys(), group, req);
      changed = done.group !== undefined && req.subconv === undefined;
      return done;
    });
    return { result, changed };
  }

  message(req: MessageRequest): Promise<DeliveryResult> {
    return this.run(req.conv, req.subconv, (group) => postMessage(this.db, this.sinks.shards, group, req));
  }

  /**
   * The backend's Remove proposals for who left, in the conversation's group and its
   * subconversations'; what of them is for other backends' clients.
   */
  async leaving(left: Leaving): Promise<RemovalsSent[]> {
    const keys = removalKeys(this.env.MLS_REMOVAL_KEYS);
    if (typeof keys === 'string') return [];
    let mls = false;
    const sent: RemovalsSent[] = [];
    const propose = (subconv: string | undefined) =>
      this.run(left.conv, subconv, async (group) => {
        mls ||= group.protocol !== 'proteus';
        const done = await proposeRemovals(this.db, this.sinks, keys, group, left);
        const time = new Date().toISOString();
        if (done.remote.length > 0) sent.push({ subconv, time, remote: done.remote });
        return { result: { ok: true, eventsJson: '[]', time }, group: done.group };
      });
    await propose(undefined);
    if (!mls) return sent; // a Proteus conversation has no MLS groups, subconversations included
    for (const subconv of subconversationsOf(this.db, left.conv)) await propose(subconv);
    return sent;
  }

  /**
   * Resets a group given its current group id and epoch (409 `mls-stale-message` for another
   * epoch, 404 for another group id): its clients go and it starts again, empty, under the next
   * generation's group id. A conversation's reset tells its members (`conversation.mls-reset`).
   */
  reset(r: ResetRequest): Promise<DeliveryResult> {
    const { conv, subconv, groupId, epoch } = r;
    return this.run(conv, subconv, async (group) => {
      if (group.groupId !== groupId) return { result: { ok: false, refusal: 'noConversation' } };
      if (group.epoch !== epoch) return { result: { ok: false, refusal: 'mlsStaleMessage' } };
      const reset = await this.restart(group);
      if (subconv === undefined) await this.announceReset(r, group, reset.groupId!);
      return { result: { ok: true, eventsJson: '[]', time: new Date().toISOString() }, group: reset };
    });
  }

  /** The group starts again, empty, at epoch 0 under the next generation's group id. */
  private async restart(group: GroupRow): Promise<GroupRow> {
    const next = toBase64(nextGeneration(fromBase64(group.groupId!)!)!);
    this.writeTogether(resetStatements(this.db, group.conv, group.subconv, group.groupId!, next));
    const empty = {
      epoch: 0,
      epochTimestamp: null,
      suite: null,
      leaves: new Map(),
      proposals: new Map(),
      lastCommit: undefined,
      rosterKept: false,
      objects: undefined,
      index: undefined,
    };
    return { ...group, groupId: next, ...empty };
  }

  /** `conversation.mls-reset` to the conversation's local members: the old and the new group id. */
  private async announceReset(r: ResetRequest, group: GroupRow, next: string): Promise<void> {
    const from = { id: r.by.user, domain: r.by.domain };
    const event = conversationEvent('conversation.mls-reset', r.conv, from, {
      group_id: r.groupId,
      new_group_id: next,
    });
    const local = [...group.members].filter((m) => m.startsWith(`${r.localDomain}/`));
    const users = local.map((m) => m.slice(r.localDomain.length + 1));
    await this.sinks.shards.append(toUsers(event, users, r.conv), r.ttlSeconds);
  }

  /**
   * A client leaves a subconversation: the backend proposes the removal of its leaf, or, when it
   * was the last one, resets the subconversation.
   */
  async leave(left: Leaving & { subconv: string }): Promise<DeliveryResult> {
    const [target] = left.targets;
    const keys = removalKeys(this.env.MLS_REMOVAL_KEYS);
    return this.run(left.conv, left.subconv, async (group) => {
      const mine = [...group.leaves.values()].filter(
        (l) => l.user === target?.user && l.domain === target.domain && l.client === target.client,
      );
      if (mine.length === 0 || typeof keys === 'string')
        return {
          result: { ok: false, refusal: 'mlsProtocolError', message: 'Client is not a member of the subconversation' },
        };
      const ok = { ok: true as const, eventsJson: '[]', time: new Date().toISOString() };
      const others = [...group.leaves.values()].filter((l) => !l.removalPending && !mine.includes(l));
      if (others.length > 0) {
        const done = await proposeRemovals(this.db, this.sinks, keys, group, left);
        return { result: { ...ok, remote: done.remote }, group: done.group };
      }
      return { result: ok, group: await this.restart(group) };
    });
  }
}
