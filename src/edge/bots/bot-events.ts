// The bot_events queue's consumer: each event goes to its bot's service, `POST
// {base_url}/bots/{bot}/messages` with the event as its body and the service's first token, over
// TLS pinned to the service's keys (through the sidecar), as wire's galley delivers them.
import type { Deps } from '../api/deps.js';
import { type BotDelivery, leaveBot } from '../galley/face.js';
import { callIntegration } from '../integrations/pinned-client.js';
import { providerStore } from './providers/provider-store.js';
import { connectionOf } from './services/service-connection.js';
import { log } from '../../shared/log.js';

type Outcome = 'delivered' | 'gone' | 'retry';

async function post(deps: Deps, d: BotDelivery): Promise<Outcome> {
  const row = await providerStore.service(deps.db, d.service.provider, d.service.id);
  if (row === undefined) return 'gone';
  const service = connectionOf(row);
  if (!service.enabled) return 'delivered'; // a disabled service misses its events, as in wire
  const reply = await callIntegration(deps.config, {
    url: `${service.baseUrl.replace(/\/+$/, '')}/bots/${d.bot}/messages`,
    method: 'POST',
    headers: { authorization: `Bearer ${service.authToken}` },
    body: d.event,
    fingerprint: service.fingerprints,
  });
  if (!reply.ok) {
    log('warn', 'bot service unreachable', { bot: d.bot, why: reply.why });
    return 'retry';
  }
  if (reply.status === 410) return 'gone';
  if (reply.status < 200 || reply.status > 299)
    log('warn', 'bot service refused an event', { bot: d.bot, status: reply.status });
  return 'delivered';
}

/** A bot its service disowns (410) leaves its conversation, from itself, and its account goes. */
async function dropBot(deps: Deps, d: BotDelivery): Promise<void> {
  await leaveBot(deps.env, deps.config, d.conv, d.bot, { id: d.bot, domain: deps.domain });
  await deps.users.deleteBotAccount(d.bot);
}

export async function runBotEventsQueue(batch: MessageBatch<unknown>, deps: Deps): Promise<void> {
  for (const m of batch.messages) {
    const d = m.body as BotDelivery;
    try {
      const outcome = await post(deps, d);
      if (outcome === 'retry') {
        m.retry({ delaySeconds: 1 });
        continue;
      }
      if (outcome === 'gone' && d.dropIfGone) await dropBot(deps, d);
      m.ack();
    } catch (err) {
      log('warn', 'bot event delivery failed', { bot: d.bot, err: String(err) });
      m.retry({ delaySeconds: 1 });
    }
  }
}
