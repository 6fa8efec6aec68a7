import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { fromConfigFile } from '../../api/config-files.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { conferenceCallingEnabled } from '../../galley/face.js';
import { userStore } from '../users/user-store.js';
import { credentialOf, sftSecretKey, sftUsername, turnSecretKey, turnUsername, usernameRandom } from './credentials.js';
import { allSftServers, sftServers } from './sft-servers.js';
import { turnServers } from './turn-servers.js';
import { limitServers, renderTurnUri, shuffled, type TurnUri } from './turn-uri.js';
import { log } from '../../../shared/log.js';

const iceServer = z
  .object({
    urls: z.array(z.string()).min(1).openapi({ description: "TURN server addresses of the form 'turn:<addr>:<port>'" }),
    username: z.string(),
    credential: z.string(),
  })
  .openapi('RTCIceServer');

const sftServer = z
  .object({ urls: z.array(z.string()).openapi({ description: "Exactly one SFT address 'https://<addr>:<port>'" }) })
  .openapi('SftServer');

const authSftServer = sftServer
  .extend({ username: z.string().optional(), credential: z.string().optional() })
  .openapi('AuthSftServer');

const rtcConfigurationV1 = z
  .object({ ice_servers: z.array(iceServer).min(1), ttl: z.int().nonnegative() })
  .openapi('RTCConfigurationV1');

const rtcConfiguration = rtcConfigurationV1
  .extend({
    sft_servers: z.array(sftServer).min(1).optional(),
    sft_servers_all: z.array(authSftServer).optional(),
    is_federating: z.boolean().optional(),
  })
  .openapi('RTCConfiguration');

const nowSeconds = () => Math.round(Date.now() / 1000);

/** One entry per TURN server, each with the user's credential (the same for all of them). */
async function iceServers(c: Context<AppEnv>, servers: readonly TurnUri[]) {
  if (servers.length === 0) {
    log('error', 'calling configuration requested before any TURN server is known');
    throw new ApiError(commonErrors.internalServerError);
  }
  const turn = c.get('config').brig.turn;
  const username = turnUsername(nowSeconds() + turn.tokenTTL, await usernameRandom(self(c).user));
  const credential = await credentialOf(fromConfigFile(c.env, turn.secret, turnSecretKey), username);
  return servers.map((u) => ({ urls: [renderTurnUri(u)], username, credential }));
}

/** `sft_servers_all`, each with an SFT credential when the configuration has `sftToken`. */
async function sftServersAll(c: Context<AppEnv>, urls: readonly string[]) {
  const brig = c.get('config').brig;
  const token = brig.sft?.sftToken ?? brig.sftToken;
  if (token === undefined) return urls.map((u) => ({ urls: [u] }));
  const db = database(c.env.DB);
  const me = await userStore.byId(db, self(c).user);
  const shared = me !== undefined && (await conferenceCallingEnabled(db, c.get('config'), me));
  const username = sftUsername(nowSeconds() + token.ttl, shared, await usernameRandom(self(c).user));
  const credential = await credentialOf(fromConfigFile(c.env, token.secret, sftSecretKey), username);
  return urls.map((u) => ({ urls: [u], username, credential }));
}

/** `GET /calls/config/v2`: TURN servers (at most `limit`, spread over transports) and SFT servers. */
export const getCallsConfigV2 = endpoint(
  {
    name: 'get-calls-config-v2',
    method: 'get',
    path: '/calls/config/v2',
    summary: 'Retrieve all TURN server addresses and credentials.',
    request: {
      query: z.object({
        limit: z.coerce
          .number()
          .int()
          .min(1)
          .max(10)
          .optional()
          .openapi({ description: 'Limit resulting list. Allowed values [1..10]' }),
      }),
    },
    errors: [commonErrors.internalServerError],
    responses: { 200: { description: 'The calling configuration', ...json(rtcConfiguration) } },
  },
  async (c) => {
    const { limit } = c.req.valid('query');
    const brig = c.get('config').brig;
    const all = shuffled(await turnServers(c.env, brig, 'v2'));
    const ice = await iceServers(c, shuffled(limit === undefined ? all : limitServers(all, limit)));
    const sft = await sftServers(brig);
    const sftAll = brig.optSettings.setSftListAllServers === 'enabled' ? await allSftServers(brig) : undefined;
    return c.json(
      {
        ice_servers: ice,
        ttl: brig.turn.configTTL,
        ...(sft === undefined || sft.length === 0 ? {} : { sft_servers: sft.map((u) => ({ urls: [u] })) }),
        ...(sftAll === undefined ? {} : { sft_servers_all: await sftServersAll(c, sftAll) }),
        ...(brig.multiSFT === undefined ? {} : { is_federating: brig.multiSFT }),
      },
      200,
    );
  },
);

/** `GET /calls/config` (until v8): the v1 TURN list, transports dropped, no SFT. */
export const getCallsConfig = endpoint(
  {
    name: 'get-calls-config',
    until: 8,
    method: 'get',
    path: '/calls/config',
    summary:
      'Retrieve TURN server addresses and credentials for IP addresses, scheme `turn` and transport `udp` only (deprecated)',
    errors: [commonErrors.internalServerError],
    responses: { 200: { description: 'The calling configuration', ...json(rtcConfigurationV1) } },
  },
  async (c) => {
    const brig = c.get('config').brig;
    const servers = (await turnServers(c.env, brig, 'v1')).map(({ transport: _, ...u }) => u);
    return c.json({ ice_servers: await iceServers(c, shuffled(servers)), ttl: brig.turn.configTTL }, 200);
  },
);
