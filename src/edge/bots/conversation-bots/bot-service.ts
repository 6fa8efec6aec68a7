// Asking a service for a new bot: `POST {base_url}/bots` with wire's NewBotRequest (who adds it,
// the conversation, the bot's id, client and token), over TLS pinned to the service's keys. The
// service answers with the bot's prekeys and, if it likes, its name, accent and assets.
import { z } from '@hono/zod-openapi';
import type { Config } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { providerErrors } from '../../api/errors/provider.js';
import type { ServiceConnection } from '../services/service-connection.js';
import { callIntegration } from '../../integrations/pinned-client.js';
import { isValidPrekey, LAST_RESORT_ID, prekey } from '../../api/schemas/prekeys.js';

const newBotResponse = z.object({
  prekeys: z.array(prekey),
  last_prekey: prekey.refine((k) => k.id === LAST_RESORT_ID),
  name: z.string().min(1).max(128).optional(),
  accent_id: z.int().optional(),
  assets: z
    .array(z.object({ key: z.string().min(1), type: z.literal('image'), size: z.enum(['preview', 'complete']) }))
    .optional(),
});
export type NewBotResponse = z.infer<typeof newBotResponse>;

/** wire's NewBotRequest. */
export interface NewBotRequest {
  id: string;
  client: string;
  origin: { id: string; name: string; accent_id: number; handle: string | null; team: string | null };
  conversation: { id: string; name?: string; members: unknown[] };
  token: string;
  locale: string;
}

const badGateway = (why: string) =>
  new ApiError(providerErrors.badGateway, `${providerErrors.badGateway.message}: ${why}`);

function parsedResponse(body: string): NewBotResponse {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw badGateway('the answer is not JSON');
  }
  const parsed = newBotResponse.safeParse(json);
  if (!parsed.success) throw badGateway('the answer is not a NewBotResponse');
  const { prekeys, last_prekey } = parsed.data;
  if (![...prekeys, last_prekey].every(isValidPrekey)) throw badGateway('MalformedPrekeys');
  return parsed.data;
}

/** The service's new bot; 409 `too-many-bots` when it has enough, 502 `bad-gateway` for anything else. */
export async function requestBot(config: Config, service: ServiceConnection, req: NewBotRequest) {
  const reply = await callIntegration(config, {
    url: `${service.baseUrl.replace(/\/+$/, '')}/bots`,
    method: 'POST',
    headers: { authorization: `Bearer ${service.authToken}` },
    body: req,
    fingerprint: service.fingerprints,
  });
  if (!reply.ok) throw badGateway(reply.why);
  if (reply.status === 409) throw new ApiError(providerErrors.tooManyBots);
  if (reply.status !== 201) throw badGateway(`the service answered ${reply.status}`);
  return parsedResponse(reply.body);
}
