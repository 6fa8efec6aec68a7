import { type Config, localDomain } from '../../../shared/config/index.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { defineEffect } from '../../effects/effect.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { publish } from '../../events/publish.js';
import type { SendMark } from '../../../shared/effects/effect-marks.js';
import { cellsCreateEvent, forwardToCells } from './cells.js';
import { conversationJson } from './conversation-json.js';
import type { ConversationRow, MemberRow } from './conversation-store.js';

interface Creation {
  conv: ConversationRow;
  members: MemberRow[];
  from: QualifiedId;
  /** Who is told (default: every member); the others already have the conversation. */
  told?: readonly MemberRow[] | undefined;
  /** The request's caller: their websocket connection is spared. */
  origin?: Pick<AccessClaims, 'user' | 'connection'> | undefined;
}

/**
 * Announces a new conversation: every local member told gets `conversation.create` with their own
 * view; Cells, when the conversation has cells, gets one data-less `conversation.create`.
 */
async function announce(env: Env, config: Config, a: Creation, mark?: () => SendMark): Promise<void> {
  const domain = localDomain(config);
  const time = new Date().toISOString();
  for (const m of (a.told ?? a.members).filter((m) => m.userDomain === domain)) {
    const viewer = { id: m.userId, domain };
    const data = conversationJson(a.conv, a.members, viewer, 'event');
    const event = conversationEvent('conversation.create', a.conv, a.from, data, { time });
    await publish(env, config, [{ user: m.userId }], event, { origin: a.origin, mark: mark?.() });
  }
  await forwardToCells(env, config, a.conv, cellsCreateEvent(a.conv, a.from, time));
}

const created = defineEffect('conversation-created', ({ env, config, mark }, a: Creation) =>
  announce(env, config, a, mark),
);

/** The announcement of a new conversation as an effect of its creation (see commitChange). */
export function announceCreatedEffect(
  by: AccessClaims | undefined,
  conv: ConversationRow,
  members: MemberRow[],
  from: QualifiedId,
  told?: readonly MemberRow[],
) {
  const origin = by === undefined ? undefined : { user: by.user, connection: by.connection };
  return created({ conv, members, from, told, origin });
}
