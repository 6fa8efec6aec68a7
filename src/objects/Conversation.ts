import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../edge/env.js';
import type { UserStreamApi } from '../edge/events/publish.js';
import { conversationEvent } from '../edge/events/conversation-events.js';
import { toBase64 } from '../shared/base64.js';
import { loadState, userKey, type ConversationState } from './conversation/members-cache.js';
import { classify } from './conversation/recipients.js';
import type { ProteusSend, ProteusSendResult } from './conversation/types.js';
import type { NotificationInput } from './notifications/types.js';

/**
 * One conversation's ordering point. It keeps the members and their clients in memory (read once
 * from D1, dropped when membership or clients change), checks Proteus messages against them and
 * fans each message out to the recipients' notification objects. MLS epochs will live here too.
 */
export class Conversation extends DurableObject<Env> {
  private state: Promise<ConversationState> | undefined;

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

  async sendProteus(req: ProteusSend, localDomain: string): Promise<ProteusSendResult> {
    const state = await this.current(req, localDomain);
    if (!state.exists || state.protocol === 'mls') return { kind: 'no-conversation' };
    const senderClients = state.clients.get(userKey(req.sender.domain, req.sender.id));
    if (senderClients === undefined) return { kind: 'no-conversation' };
    if (!senderClients.has(req.sender.client)) return { kind: 'unknown-client' };
    const c = classify(state, req.sender, req.message.recipients, req.message.strategy ?? { kind: 'report_all' });
    const time = new Date().toISOString();
    const status = { time, missing: c.missing, redundant: c.redundant, deleted: c.deleted, failed_to_send: {}, failed_to_confirm_clients: {} };
    if (Object.keys(c.missing).length > 0) return { kind: 'missing-clients', status };

    const byUser = new Map<string, NotificationInput[]>();
    const blob = req.message.blob === undefined ? '' : toBase64(req.message.blob);
    for (const r of c.deliver) {
      if (r.domain !== localDomain) continue; // remote recipients: through federation, later
      const data = { sender: req.sender.client, recipient: r.client, text: toBase64(r.text), data: blob };
      const event = conversationEvent('conversation.otr-message-add', req.conv, req.sender, data, { time });
      const inputs = byUser.get(r.user) ?? [];
      inputs.push({
        payload: [event],
        clients: [r.client],
        transient: req.message.transient,
        ...(r.user === req.sender.id ? { originConnection: req.sender.connection } : {}),
      });
      byUser.set(r.user, inputs);
    }
    const ns = this.env.USER_NOTIFICATIONS;
    await Promise.all(
      [...byUser].map(([user, inputs]) => (ns.get(ns.idFromName(user)) as unknown as UserStreamApi).append(inputs, req.ttlSeconds)),
    );
    return { kind: 'sent', status };
  }
}
