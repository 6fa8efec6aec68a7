import { DurableObject } from 'cloudflare:workers';
import { otrNotifications } from '../shared/proteus/otr-notifications.js';
import { classify, sendingStatus, userKey } from '../shared/proteus/recipients.js';
import type { ProteusSend, ProteusSendResult } from '../shared/proteus/types.js';
import { type ConversationState, loadState } from './conversation/members-cache.js';
import { NotificationShards } from './notification-shards.js';

/**
 * One conversation's ordering point. It keeps the members and their clients in memory (read once
 * from D1, dropped when membership or clients change), checks Proteus messages against them and
 * fans each message out to the recipients' notification objects. MLS epochs will live here too.
 */
export class Conversation extends DurableObject<Env> {
  private state: Promise<ConversationState> | undefined;
  /** Messages are checked and fanned out one after the other: the conversation's order. */
  private tail: Promise<unknown> = Promise.resolve();
  private readonly shards = new NotificationShards(this.env);

  /** Membership or a member's clients changed: read them again on the next message. */
  invalidate(): void {
    this.state = undefined;
  }

  private current(req: ProteusSend, localDomain: string): Promise<ConversationState> {
    const loading = (this.state ??= loadState(this.env.DB, req.conv, localDomain));
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
    const run = this.tail.then(() => this.processProteus(req, localDomain));
    this.tail = run.catch(() => undefined);
    const { result, stored } = await run;
    await stored;
    return result;
  }

  private async processProteus(
    req: ProteusSend,
    localDomain: string,
  ): Promise<{ result: ProteusSendResult; stored?: Promise<void> }> {
    const state = await this.current(req, localDomain);
    if (!state.exists || state.protocol === 'mls') return { result: { kind: 'no-conversation' } };
    const senderClients = state.clients.get(userKey(req.sender.domain, req.sender.id));
    if (senderClients === undefined) return { result: { kind: 'no-conversation' } };
    if (!senderClients.has(req.sender.client)) return { result: { kind: 'unknown-client' } };
    const c = classify(
      state.clients,
      req.sender,
      req.message.recipients,
      req.message.strategy ?? { kind: 'report_all' },
    );
    const time = new Date().toISOString();
    const status = sendingStatus(c, time);
    if (Object.keys(c.missing).length > 0) return { result: { kind: 'missing-clients', status } };

    const notifications = otrNotifications(c.deliver, {
      conversationOf: () => req.conv,
      sender: req.sender,
      blob: req.message.blob,
      transient: req.message.transient,
      time,
      localDomain,
    });
    return { result: { kind: 'sent', status }, stored: this.shards.append(notifications, req.ttlSeconds) };
  }
}
