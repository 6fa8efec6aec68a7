import type { Config } from '../../../shared/config/index.js';
import type { Db } from '../../db/client.js';
import { publish } from '../../events/publish.js';
import { teamEvent } from '../../events/team-events.js';
import { TEAM_ADMINS } from './team-access.js';
import { teamStore } from './team-store.js';
import { pushTeamEvent } from './team-queue.js';

/**
 * After a user joined a team (whichever way): `team.member-join` goes to the new member and the
 * team's owners and admins, to their connected sockets only (as wire-server pushes it, transient),
 * and into the team queue, where clients read it with `GET /teams/notifications`.
 */
export async function announceMemberJoin(env: Env, db: Db, config: Config, team: string, user: string): Promise<void> {
  const event = teamEvent('team.member-join', team, { user });
  const admins = await teamStore.withRoles(db, team, TEAM_ADMINS);
  const recipients = [...new Set([user, ...admins])].map((u) => ({ user: u }));
  await publish(env, config, recipients, event, { transient: true });
  await pushTeamEvent(db, team, event);
}
