import { type Config, localDomain } from '../../../shared/config/index.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { publish } from '../../events/publish.js';
import { forwardToCells } from './cells.js';
import { type ConversationEvent, notifyRemoteMembers } from '../federation/conversation-updated.js';
import type { ConversationRow, MemberRow } from './conversation-store.js';
import { deliverToBots } from './bot-deliveries.js';
import { serviceOf } from './member-data.js';
import { defineEffect } from '../../effects/effect.js';
import type { SendMark } from '../../../shared/effects/effect-marks.js';

type ConvRef = Pick<ConversationRow, 'cellsState' | 'domain' | 'id'>;

/**
 * Sends one event of the conversation to every local member given, `origin`'s websocket
 * connection excepted (bots: to their services), and to the Cells queue when the conversation has
 * cells. When this backend owns the conversation, the backends of remote members are told too
 * (on-conversation-updated).
 */
async function tellMembers(
  env: Env,
  config: Config,
  conv: ConvRef,
  members: readonly MemberRow[],
  event: ConversationEvent,
  origin?: Pick<AccessClaims, 'user' | 'connection'>,
  mark?: SendMark,
): Promise<void> {
  const local = localDomain(config);
  const here = members.filter((m) => m.userDomain === local);
  const bots = here.flatMap((m) => {
    const service = serviceOf(m);
    return service === undefined ? [] : [{ bot: m.userId, service, event }];
  });
  const recipients = here.filter((m) => serviceOf(m) === undefined).map((m) => ({ user: m.userId }));
  if (bots.length > 0) await deliverToBots(env, conv, bots);
  // Changes a remote member made (through federation) have no local connection to spare.
  const channel = `${conv.domain}/${conv.id}`;
  await publish(env, config, recipients, event, { origin, channel, mark });
  await forwardToCells(env, config, conv, event);
  await notifyRemoteMembers(env, config, conv, members, event);
}

interface MembersEvent {
  conv: ConvRef;
  members: readonly MemberRow[];
  event: ConversationEvent;
  origin?: Pick<AccessClaims, 'user' | 'connection'> | undefined;
}

const membersEvent = defineEffect('conversation-event', ({ env, config, mark }, a: MembersEvent) =>
  tellMembers(env, config, a.conv, a.members, a.event, a.origin, mark()),
);

/**
 * tellMembers as an effect of a change (see commitChange): `origin`'s connection is spared (none
 * for changes other backends or background jobs make).
 */
export function tellMembersEffect(
  conv: ConvRef,
  members: readonly MemberRow[],
  event: ConversationEvent,
  origin?: Pick<AccessClaims, 'user' | 'connection'>,
) {
  return membersEvent({
    conv: { id: conv.id, domain: conv.domain, cellsState: conv.cellsState },
    members,
    event,
    origin: origin === undefined ? undefined : { user: origin.user, connection: origin.connection },
  });
}
