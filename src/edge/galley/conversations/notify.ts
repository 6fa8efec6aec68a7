import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { publish } from '../../events/publish.js';
import { forwardToCells } from './cells.js';
import { type ConversationEvent, notifyRemoteMembers } from '../federation/conversation-updated.js';
import type { ConversationRow, MemberRow } from './conversation-store.js';

/** Local members of a conversation (remote ones hear of changes from their own backend). */
export function localMembers(c: Context<AppEnv>, members: readonly MemberRow[]): MemberRow[] {
  const domain = c.get('config').brig.optSettings.setFederationDomain;
  return members.filter((m) => m.userDomain === domain);
}

/**
 * Sends one event of the conversation to every local member given, the caller's websocket
 * connection excepted, and to the Cells queue when the conversation has cells. When this backend
 * owns the conversation, the backends of remote members are told too (on-conversation-updated).
 */
export async function notifyMembers(
  c: Context<AppEnv>,
  conv: Pick<ConversationRow, 'cellsState' | 'domain' | 'id'>,
  members: readonly MemberRow[],
  event: ConversationEvent,
): Promise<void> {
  const recipients = localMembers(c, members).map((m) => ({ user: m.userId }));
  // Changes a remote member made (through federation) have no local connection to spare.
  const channel = `${conv.domain}/${conv.id}`;
  await publish(c.env, c.get('config'), recipients, event, { origin: c.get('self'), channel });
  await forwardToCells(c.env, c.get('config'), conv, event);
  await notifyRemoteMembers(c, conv, members, event);
}
