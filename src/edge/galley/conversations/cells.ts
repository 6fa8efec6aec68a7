import type { Config } from '../../../shared/config/index.js';
import { eventTime } from '../../events/conversation-events.js';
import { UuidV1Generator } from '../../../shared/uuid-v1.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { ConversationRow } from './conversation-store.js';
import { log } from '../../../shared/log.js';

/** The conversation events the Cells service follows (wire's `isCellsConversationEvent`). */
const CELLS_EVENT_TYPES = new Set([
  'conversation.create',
  'conversation.delete',
  'conversation.member-join',
  'conversation.member-leave',
  'conversation.member-update',
  'conversation.rename',
]);

/** Made on first use: workerd allows no randomness at module scope. */
let ids: UuidV1Generator | undefined;

/**
 * Forwards an event of a conversation whose cells state is `pending` or `ready` to the Cells
 * queue, as one queued notification (`{id, payload}`). The queue is the CELLS_EVENTS binding
 * (wrangler.toml), which gundeck's `cellsEventQueue` names; without it the event is logged as
 * undeliverable, as gundeck does.
 */
export async function forwardToCells(
  env: Env,
  config: Config,
  conv: Pick<ConversationRow, 'cellsState'>,
  event: { type: string },
): Promise<void> {
  if (conv.cellsState === 'disabled' || !CELLS_EVENT_TYPES.has(event.type)) return;
  if (config.gundeck.settings.cellsEventQueue === undefined || env.CELLS_EVENTS === undefined) {
    log('error', 'Cells events have been generated, but no Cells queue is configured in gundeck');
    return;
  }
  await env.CELLS_EVENTS.send(
    { id: (ids ??= new UuidV1Generator()).next(), payload: [event] },
    { contentType: 'json' },
  );
}

/** What Cells is told when a conversation with cells is created: no data, one event. */
export function cellsCreateEvent(conv: QualifiedId, from: QualifiedId, time = eventTime()) {
  return {
    type: 'conversation.create',
    qualified_conversation: { id: conv.id, domain: conv.domain },
    qualified_from: { id: from.id, domain: from.domain },
    time,
  };
}
