import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../edge/env.js';
import { loadState, userKey, type ConversationState } from './conversation/members-cache.js';
import { classify } from './conversation/recipients.js';
import type { ProteusSend, ProteusSendResult } from './conversation/types.js';
import { fanOutOtr } from './conversation/fan-out.js';

/**
 * One conversation's ordering point. It keeps the members and their clients in memory (read once
 * from D1, dropped when membership or clients change), checks Proteus messages against them and
 * fans each message out to the recipients' notification objects. MLS epochs will live here too.
 */
export class Conversation extends DurableObject<Env> {
  private state: Promise<ConversationState> | undefined;
  /** Messages are checked and fanned out one after the other: the conversation's order. */
  private tail: Promise<unknown> = Promise.resolve();

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

  sendProteus(req: ProteusSend, localDomain: string): Promise<ProteusSendResult> {
    const run = this.tail.then(() => this.processProteus(req, localDomain));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async processProteus(req: ProteusSend, localDomain: string): Promise<ProteusSendResult> {
    const state = await this.current(req, localDomain);
    if (!state.exists || state.protocol === 'mls') return { kind: 'no-conversation' };
    const senderClients = state.clients.get(userKey(req.sender.domain, req.sender.id));
    if (senderClients === undefined) return { kind: 'no-conversation' };
    if (!senderClients.has(req.sender.client)) return { kind: 'unknown-client' };
    const c = classify(state, req.sender, req.message.recipients, req.message.strategy ?? { kind: 'report_all' });
    const time = new Date().toISOString();
    const status = { time, missing: c.missing, redundant: c.redundant, deleted: c.deleted, failed_to_send: {}, failed_to_confirm_clients: {} };
    if (Object.keys(c.missing).length > 0) return { kind: 'missing-clients', status };

    await fanOutOtr(this.env.USER_NOTIFICATIONS, c.deliver, {
      conversationOf: () => req.conv,
      sender: req.sender,
      blob: req.message.blob,
      transient: req.message.transient,
      time,
      ttlSeconds: req.ttlSeconds,
      localDomain,
    });
    return { kind: 'sent', status };
  }
}
