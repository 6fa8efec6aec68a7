import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { publish } from '../../events/publish.js';
import { cellsCreateEvent, forwardToCells } from './cells.js';
import { conversationJson } from './conversation-json.js';
import type { ConversationRow, MemberRow } from './conversation-store.js';

/**
 * Announces a new conversation: every local member gets `conversation.create` with their own
 * view; Cells, when the conversation has cells, gets one data-less `conversation.create`.
 */
export async function announceCreated(
  c: Context<AppEnv>,
  conv: ConversationRow,
  members: MemberRow[],
  from: QualifiedId,
  /** Who is told (default: every member); the others already have the conversation. */
  told: readonly MemberRow[] = members,
) {
  const domain = c.get('config').brig.optSettings.setFederationDomain;
  const time = new Date().toISOString();
  for (const m of told.filter((m) => m.userDomain === domain)) {
    const viewer = { id: m.userId, domain };
    const event = conversationEvent(
      'conversation.create',
      conv,
      from,
      conversationJson(conv, members, viewer, 'event'),
      { time },
    );
    // Remote creations (on-conversation-created) have no local caller to spare.
    await publish(c.env, c.get('config'), [{ user: m.userId }], event, { origin: c.get('self') });
  }
  await forwardToCells(c.env, c.get('config'), conv, cellsCreateEvent(conv, from, time));
}
