// Events for bots: each goes to the bot's service (the background worker posts them, see
// bots/bot-events.ts). The bot_events queue carries them, so that a service that
// cannot be reached now is tried again.
import type { QualifiedId } from '../../api/schemas/common.js';
import type { ServiceRef } from './member-data.js';

/** One event for one bot, as the bot_events queue carries it. */
export interface BotDelivery {
  bot: string;
  service: ServiceRef;
  conv: QualifiedId;
  event: unknown;
  /** A message: a bot whose service says it is gone (410) leaves the conversation (wire's deliverAndDelete). */
  dropIfGone: boolean;
}

/** Queue-sized groups of deliveries. */
const BATCH = 100;

/** Queues the event for each bot. */
export async function deliverToBots(
  env: Env,
  conv: QualifiedId,
  bots: ReadonlyArray<{ bot: string; service: ServiceRef; event: unknown }>,
  o: { dropIfGone?: boolean } = {},
): Promise<void> {
  const messages = bots.map((b) => ({
    body: { ...b, conv: { id: conv.id, domain: conv.domain }, dropIfGone: o.dropIfGone ?? false } as BotDelivery,
  }));
  for (let i = 0; i < messages.length; i += BATCH) await env.BOT_EVENTS.sendBatch(messages.slice(i, i + BATCH));
}
