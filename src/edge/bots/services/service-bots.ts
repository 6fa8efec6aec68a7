import type { QualifiedId } from '../../api/schemas/common.js';
import type { AccessClaims } from '../../auth/tokens.js';
import type { Deps } from '../../api/deps.js';
import { botsOfService, leaveBot } from '../../galley/face.js';

/**
 * Every bot of the service leaves its conversation (those of `team`'s conversations only, when
 * given) and its account ends. `by`: who removes them (a team admin de-whitelisting the service);
 * without it, each bot leaves on its own (the service is deleted).
 */
export async function removeServiceBots(
  d: Deps,
  service: { id: string; provider: string },
  o: { team?: string; by?: AccessClaims } = {},
): Promise<void> {
  for (const { conv, bot } of await botsOfService(d.env, service, o.team)) {
    const actor: QualifiedId = o.by === undefined ? { id: bot, domain: d.domain } : { id: o.by.user, domain: d.domain };
    await leaveBot(d.env, d.config, conv, bot, actor, o.by);
    await d.users.deleteBotAccount(bot);
  }
}
