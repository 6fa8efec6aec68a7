import type { Context } from 'hono';
import { NotificationShards } from '../../../objects/notification-shards.js';
import { otrNotifications } from '../../../shared/proteus/otr-notifications.js';
import { classify, sendingStatus, userKey } from '../../../shared/proteus/recipients.js';
import type { MessageSendingStatus } from '../../../shared/proteus/types.js';
import type { MismatchStrategy, OtrMessage } from '../../../shared/codecs/otr.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { self } from '../../api/self.js';
import { database, type Db } from '../../db/client.js';
import { teamStore } from '../teams/team-store.js';
import { deps } from '../../api/deps.js';

type Message = OtrMessage & { strategy: MismatchStrategy };

const tooMany = () => new ApiError(galleyErrors.tooManyUsersToBroadcast);

/**
 * The team members a broadcast expects clients of. Only with `report_only` may the team be larger
 * than the fan-out limit: then just the listed and addressed users are looked up.
 */
async function expectedTeamMembers(
  db: Db,
  team: string,
  addressed: ReadonlySet<string>,
  strategy: MismatchStrategy,
  domain: string,
  limit: number,
) {
  if (strategy.kind === 'report_only') {
    const lookup = new Set([...strategy.users.filter((u) => u.domain === domain).map((u) => u.id), ...addressed]);
    if (lookup.size > limit) throw tooMany();
    return [...(await teamStore.membersAmong(db, team, [...lookup]))];
  }
  const members = await teamStore.memberIds(db, team, limit + 1);
  if (members.length > limit) throw tooMany();
  return members;
}

/**
 * A broadcast (availability, profile changes) to the sender's team and accepted contacts, each
 * recipient seeing it in their own self conversation. Checked like a conversation message; sent
 * only when no client the strategy reports is missing. Remote recipients are not expected (redundant).
 */
export async function sendBroadcast(
  c: Context<AppEnv>,
  message: Message,
): Promise<{ sent: boolean; status: MessageSendingStatus }> {
  const config = c.get('config');
  const domain = deps(c).domain;
  const me = self(c);
  const db = database(c.env.DB);
  // Every team here is a binding team, so wire's `non-binding-team` cannot arise.
  const users = deps(c).users;
  const team = (await users.account({ id: me.user, domain }))?.team ?? null;
  if (team === null) throw new ApiError(galleyErrors.noTeam);
  const { maxTeamSize, maxFanoutSize } = config.galley.settings;
  const limit = Math.min(maxTeamSize, maxFanoutSize);
  const addressed = new Set(message.recipients.filter((r) => r.domain === domain).map((r) => r.user));
  if (addressed.size > limit) throw tooMany();

  const members = await expectedTeamMembers(db, team, addressed, message.strategy, domain, limit);
  const contacts = (await users.contactsOf({ id: me.user, domain })).map((u) => u.id);
  const audience = [...new Set([...members, ...contacts])];
  const clients = new Map<string, Set<string>>(audience.map((u) => [userKey(domain, u), new Set<string>()]));
  const audienceIds = audience.map((id) => ({ id, domain }));
  for (const cl of await users.clientsOf(audienceIds)) clients.get(userKey(domain, cl.user.id))!.add(cl.client);

  const sender = { id: me.user, domain, client: message.sender, connection: me.connection };
  const cls = classify(clients, sender, message.recipients, message.strategy);
  const time = new Date().toISOString();
  const status = sendingStatus(cls, time);
  if (Object.keys(cls.missing).length > 0) return { sent: false, status };
  const notifications = otrNotifications(cls.deliver, {
    conversationOf: (r) => ({ id: r.user, domain }),
    sender,
    blob: message.blob,
    transient: message.transient,
    nativePush: message.nativePush,
    time,
    localDomain: domain,
  });
  await new NotificationShards(c.env).append(notifications, config.gundeck.settings.notificationTTL);
  return { sent: true, status };
}
