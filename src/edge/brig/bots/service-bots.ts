import { type Config, localDomain } from '../../../shared/config/index.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { database } from '../../db/client.js';
import { botsOfService, leaveBot } from '../../galley/face.js';
import { deleteBotAccount } from './bot-accounts.js';

/**
 * Every bot of the service leaves its conversation (those of `team`'s conversations only, when
 * given) and its account ends. `by`: who removes them (a team admin de-whitelisting the service);
 * without it, each bot leaves on its own (the service is deleted).
 */
export async function removeServiceBots(
  env: Env,
  config: Config,
  service: { id: string; provider: string },
  o: { team?: string; by?: AccessClaims } = {},
): Promise<void> {
  const db = database(env.DB);
  const domain = localDomain(config);
  for (const { conv, bot } of await botsOfService(db, service, o.team)) {
    const actor: QualifiedId = o.by === undefined ? { id: bot, domain } : { id: o.by.user, domain };
    await leaveBot(env, config, conv, bot, actor, o.by);
    await deleteBotAccount(db, bot);
  }
}
