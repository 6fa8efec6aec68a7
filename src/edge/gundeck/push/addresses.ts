import type { Config } from '../../../shared/config/index.js';
import type { PushAddress } from '../../../shared/notifications/native-push.js';
import { userStream } from '../../events/publish.js';
import { pushGatewayOf } from './configured-gateway.js';
import { log } from '../../../shared/log.js';
import { defineEffect } from '../../effects/effect.js';

/**
 * Lets the gateway go of addresses no longer stored. A failure is logged: the endpoint stays at
 * the gateway, where the next push to it finds it unused.
 */
export async function release(env: Env, config: Config, user: string, gone: readonly PushAddress[]): Promise<void> {
  if (gone.length === 0) return;
  const gateway = pushGatewayOf(env, config);
  if (gateway === undefined) return;
  for (const a of gone)
    await gateway
      .release(user, a.endpoint)
      .catch((err: unknown) => log('warn', 'push endpoint not released', { err: String(err) }));
}

/** Deleted clients: their notification queues and push addresses go. */
async function forgetClients(env: Env, config: Config, user: string, clients: readonly string[]) {
  const stream = userStream(env, user);
  for (const client of clients) await release(env, config, user, await stream.forgetClient(client));
}

/** forgetClients as an effect of the clients' deletion (see commitChange). */
export const forgetClientsEffect = defineEffect(
  'forget-clients',
  ({ env, config }, a: { user: string; clients: readonly string[] }) => forgetClients(env, config, a.user, a.clients),
);

/**
 * A new client's own notification queue (consumable notifications), as an effect of adding it;
 * `legacy` are the user's clients without one (absent in effects recorded before it was).
 */
export const enableQueueEffect = defineEffect(
  'enable-queue',
  async ({ env }, a: { user: string; client: string; legacy?: readonly string[] }) => {
    await userStream(env, a.user).enableQueue(a.client, a.legacy);
  },
);

/**
 * A new client without a queue, as an effect of adding it: while the user has one, what is for
 * all of their clients is stored for `GET /notifications` only because of such clients.
 */
export const legacyClientEffect = defineEffect(
  'legacy-client',
  async ({ env }, a: { user: string; client: string; legacy: readonly string[] }) => {
    await userStream(env, a.user).addLegacyClient(a.client, a.legacy);
  },
);

/** A deleted account: its notification queues and push addresses go. */
async function forgetAccount(env: Env, config: Config, user: string) {
  await release(env, config, user, await userStream(env, user).forgetUser());
}

/** forgetAccount as an effect of the account's deletion (see commitChange). */
export const forgetAccountEffect = defineEffect('forget-account', ({ env, config }, a: { user: string }) =>
  forgetAccount(env, config, a.user),
);
