import { DurableObject } from 'cloudflare:workers';
import { faultPoint } from '../shared/fault-point.js';
import { heldEffectsStore } from '../shared/effects/held-effects-store.js';
import { otrNotifications } from '../shared/proteus/otr-notifications.js';
import { classify, sendingStatus, userKey, withRemoteClients } from '../shared/proteus/recipients.js';
import type { OtrRecipient } from '../shared/codecs/otr.js';
import type { ProteusSend, ProteusSendResult, QualifiedRef } from '../shared/proteus/types.js';
import type {
  CommitRequest,
  DeliveryResult,
  GroupClient,
  GroupView,
  Leaving,
  MessageRequest,
  RemovalsSent,
  ResetRequest,
} from '../shared/mls/delivery.js';
import { type ConversationState, loadState } from './conversation/members-cache.js';
import { type ConversationDb, conversationDb, writeTogether } from './db/conversation-db.js';
import {
  type ConversationOp,
  type ConversationRow,
  type MemberRow,
  opWrites,
  readConversation,
  readRow,
  readStanding,
} from './conversation/conversation-store.js';
import type { Standing } from '../shared/conversations/conversation-ops.js';
import { AppliedStore } from './conversation/applied-store.js';
import { EdgeEffectsStore } from './conversation/edge-effects-store.js';
import { moveIn } from './conversation/move-in.js';
import { MovedInStore } from './conversation/moved-in-store.js';
import { MlsGroups } from './conversation/mls/groups.js';
import { NotificationShards } from './notification-shards.js';
import { Outbox } from './conversation/outbox.js';
import { directoryOf } from './db/directory.js';

/**
 * One conversation's owner and ordering point. Its storage holds the conversation: its row, its
 * members and its MLS groups (moved in from D1 on its first call), which galley changes through
 * `apply`. It keeps the members and their clients in memory (dropped when membership or clients
 * change), checks Proteus messages against them and fans each message out to the recipients'
 * notification objects. For MLS it is the delivery service: it holds each group's epoch, clients
 * by leaf and pending proposals, and applies commits one at a time.
 */
export class Conversation extends DurableObject<Env> {
  private state: Promise<ConversationState> | undefined;
  /** Messages are checked and fanned out one after the other: the conversation's order. */
  private tail: Promise<unknown> = Promise.resolve();
  /** What is being sent to the notification objects, so that a crash cannot leave a message half stored. */
  private readonly outbox = new Outbox(this.ctx, this.ctx.id.toString());
  private readonly shards = new NotificationShards(this.env, this.outbox);
  private readonly db: ConversationDb = conversationDb(this.ctx.storage);
  private readonly edgeEffects = new EdgeEffectsStore(this.ctx.storage.sql);
  private readonly moved = new MovedInStore(this.ctx.storage.sql);
  private readonly applied = new AppliedStore(this.ctx.storage.sql);
  private opened = false;

  /** The conversation's MLS groups; dropped with the members cache. */
  private readonly mls = new MlsGroups(
    this.env,
    this.db,
    {
      conv: () => this.moved.conv()!,
      d1: this.env.DB,
      shards: this.shards,
      edgeEffects: this.edgeEffects,
      committed: () => faultPoint(this.env, 'change-committed'),
      retryLater: () => this.outbox.arm(),
    },
    (writes) => writeTogether(this.ctx.storage, writes),
  );

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.opened = this.moved.state() === 'done';
    // Messages a restart cut are sent again before anything new (the conversation's order).
    void this.ordered(async () => ({ stored: this.sendUnsent() }));
  }

  /** Messages a crash or a failed call left half sent; while any remain the alarm is kept set. */
  override async alarm(): Promise<void> {
    this.outbox.alarmFired();
    const { stored } = await this.ordered(async () => ({ stored: this.sendUnsent() }));
    await stored;
    await this.handOverEffects();
    this.outbox.rearm();
  }

  /**
   * Effects for the edge a crash left here go to D1's pending_effects, and the sweep's mark goes
   * (the sweep calls this for the conversations marked; the alarm too).
   */
  async handOverEffects(conv?: QualifiedRef): Promise<void> {
    if (conv !== undefined) await this.open(conv);
    await this.edgeEffects.handOver(this.env.DB);
    const self = this.moved.conv();
    if (self !== undefined) await heldEffectsStore.release(this.env.DB, self);
  }

  /** Before the first call is answered, the conversation's rows of earlier versions are here (once). */
  private async open(conv: QualifiedRef): Promise<void> {
    if (this.opened) return;
    await this.ctx.blockConcurrencyWhile(async () => {
      if (this.opened) return;
      const c = {
        storage: this.ctx.storage,
        db: this.db,
        d1: this.env.DB,
        moved: this.moved,
        edgeEffects: this.edgeEffects,
      };
      await moveIn(c, conv);
      this.opened = true;
    });
  }

  /** The conversation's row and members, after what was ordered before; undefined when it is not here. */
  /** The conversation's row alone (galley's reads of it, without its members). */
  async row(conv: QualifiedRef): Promise<ConversationRow | undefined> {
    await this.open(conv);
    return readRow(this.db, conv);
  }

  /** The row, these users' memberships, and whether a member is of another domain than `local` (see Standing). */
  async standing(conv: QualifiedRef, users: readonly QualifiedRef[], local: string): Promise<Standing | undefined> {
    await this.open(conv);
    return readStanding(this.db, conv, users, local);
  }

  async conversation(conv: QualifiedRef): Promise<{ row: ConversationRow; members: MemberRow[] } | undefined> {
    await this.open(conv);
    // Each change is one synchronous transaction: what is read is a whole state, ordered or not.
    return readConversation(this.db, conv);
  }

  /**
   * galley's change of the conversation (the conversation book's writes), in its order and in one
   * transaction; `mark` names the change, which is applied once however often it is carried out.
   */
  async apply(conv: QualifiedRef, ops: ConversationOp[], mark: string): Promise<void> {
    await this.open(conv);
    await this.ordered(async () => {
      if (this.applied.has(mark)) return;
      const writes = opWrites(this.db, conv, ops);
      this.ctx.storage.transactionSync(() => {
        for (const w of writes) w.run();
        this.applied.add(mark, Date.now());
      });
      this.state = undefined;
      this.mls.forget();
    });
  }

  private sendUnsent(): Promise<unknown> {
    return Promise.allSettled(this.outbox.takeUnsent().map((p) => this.shards.resend(p.seq, p.byObject, p.ttlSeconds)));
  }

  /**
   * Membership or a member's clients changed: read them again on the next message. Users who left
   * and clients that were deleted (`left`) are proposed for removal from the MLS groups, in order.
   */
  async invalidate(conv: QualifiedRef, left?: Leaving): Promise<RemovalsSent[]> {
    await this.open(conv);
    this.state = undefined;
    this.mls.forget();
    return left === undefined ? [] : this.ordered(() => this.mls.leaving(left));
  }

  /** Runs `work` after everything ordered before it (Proteus messages and MLS commits alike). */
  private ordered<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Applies an MLS commit bundle in the group's order; a refused one changes nothing. */
  async commitBundle(req: CommitRequest): Promise<DeliveryResult> {
    await this.open(req.conv);
    return this.ordered(async () => {
      const { result, changed } = await this.mls.commit(req);
      if (changed) this.state = undefined; // members and clients changed
      return result;
    });
  }

  /** A proposal or application message for an MLS group, in the group's order. */
  async mlsMessage(req: MessageRequest): Promise<DeliveryResult> {
    await this.open(req.conv);
    return this.ordered(() => this.mls.message(req));
  }

  /** A group as it is, after what was ordered before (the edge's subconversation view). */
  async group(conv: QualifiedRef, subconv?: string): Promise<GroupView | undefined> {
    await this.open(conv);
    return this.ordered(() => this.mls.view(conv, subconv));
  }

  /** The GroupInfo of a group's current epoch, after what was ordered before. */
  async groupInfo(conv: QualifiedRef, subconv?: string): Promise<Uint8Array | undefined> {
    await this.open(conv);
    return this.ordered(() => this.mls.groupInfo(conv, subconv));
  }

  /** The clients that pending proposals of a group add (the commit route's checks of a commit's references). */
  async proposedAdds(conv: QualifiedRef, subconv: string | undefined, refs: readonly string[]): Promise<GroupClient[]> {
    await this.open(conv);
    return this.ordered(() => this.mls.proposedAdds(conv, subconv, refs));
  }

  /**
   * Whether any of these clients is in a group at `epoch` (the commit route refuses adding one
   * again before its key checks; a commit of another epoch is the group's to answer), and which
   * of their users are the conversation's members (what the route asks next, in the same call).
   */
  async groupHolds(
    conv: QualifiedRef,
    subconv: string | undefined,
    epoch: number,
    clients: readonly GroupClient[],
    local: string,
  ): Promise<{ holds: boolean; members: MemberRow[] }> {
    await this.open(conv);
    const users = [
      ...new Map(clients.map((c) => [`${c.domain}/${c.user}`, { id: c.user, domain: c.domain }])).values(),
    ];
    return this.ordered(async () => ({
      holds: await this.mls.holds(conv, subconv, epoch, clients),
      members: readStanding(this.db, conv, users, local)?.members ?? [],
    }));
  }

  /** Resets the conversation's or a subconversation's group, in order. */
  async resetGroup(req: ResetRequest): Promise<DeliveryResult> {
    await this.open(req.conv);
    return this.ordered(() => this.mls.reset(req));
  }

  /** A client leaves a subconversation (`DELETE …/subconversations/{id}/self`), in order. */
  async leaveSubconversation(left: Leaving & { subconv: string }): Promise<DeliveryResult> {
    await this.open(left.conv);
    return this.ordered(() => this.mls.leave(left));
  }

  private current(req: ProteusSend, localDomain: string): Promise<ConversationState> {
    const loading = (this.state ??= loadState(this.db, directoryOf(this.env), req.conv, localDomain));
    loading.catch(() => {
      if (this.state === loading) this.state = undefined;
    });
    return loading;
  }

  /**
   * Checks are serial, in arrival order, and each message's appends are started before the next
   * message is looked at; the shards receive them in that order (see NotificationShards). The
   * sender's answer waits until its message is stored for every recipient.
   */
  async sendProteus(req: ProteusSend, localDomain: string): Promise<ProteusSendResult> {
    await this.open(req.conv);
    const { result, stored } = await this.ordered(() => this.processProteus(req, localDomain));
    await stored;
    return result;
  }

  private async processProteus(
    req: ProteusSend,
    localDomain: string,
  ): Promise<{ result: ProteusSendResult; stored?: Promise<void> }> {
    const state = await this.current(req, localDomain);
    if (!state.exists || state.protocol === 'mls') return { result: { kind: 'no-conversation' } };
    if (state.remote.length > 0 && req.remote === undefined)
      return { result: { kind: 'remote-clients-needed', users: state.remote } };
    const view =
      req.remote === undefined
        ? { table: state.clients, checked: req.message.recipients, unconfirmed: [], failedToConfirm: {} }
        : withRemoteClients(state.clients, req.remote, req.message.recipients);
    const senderClients = view.table.get(userKey(req.sender.domain, req.sender.id));
    if (senderClients === undefined) return { result: { kind: 'no-conversation' } };
    if (!senderClients.has(req.sender.client)) return { result: { kind: 'unknown-client' } };
    if (state.legalholdConflict) return { result: { kind: 'missing-legalhold-consent' } };
    const c = classify(view.table, req.sender, view.checked, req.message.strategy ?? { kind: 'report_all' });
    const time = new Date().toISOString();
    const status = { ...sendingStatus(c, time), failed_to_confirm_clients: view.failedToConfirm };
    if (Object.keys(c.missing).length > 0) return { result: { kind: 'missing-clients', status } };

    const deliver = [...c.deliver, ...view.unconfirmed];
    const remote = deliver.filter((r) => r.domain !== localDomain);
    const botOf = (r: OtrRecipient) => (r.domain === localDomain ? state.bots.get(r.user) : undefined);
    const bots =
      state.bots.size === 0
        ? []
        : deliver.flatMap((r) => {
            const service = botOf(r);
            return service === undefined ? [] : [{ ...r, service }];
          });
    const people = bots.length === 0 ? deliver : deliver.filter((r) => botOf(r) === undefined);
    const notifications = otrNotifications(people, {
      conversationOf: () => req.conv,
      sender: req.sender,
      blob: req.message.blob,
      transient: req.message.transient,
      nativePush: req.message.nativePush,
      time,
      localDomain,
      channel: `${req.conv.domain}/${req.conv.id}`,
    });
    const result = { kind: 'sent' as const, status, remote, bots };
    return { result, stored: this.shards.append(notifications, req.ttlSeconds) };
  }
}
