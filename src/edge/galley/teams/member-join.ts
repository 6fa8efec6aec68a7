import type { Config } from '../../../shared/config/index.js';
import type { Db } from '../../db/client.js';
import type { Env } from '../../env.js';
import { publish } from '../../events/publish.js';
import { teamEvent } from '../../events/team-events.js';
import { TEAM_ADMINS } from './team-access.js';
import { teamStore } from './team-store.js';
import { pushTeamEvent } from './team-queue.js';

/**
 * After a user joined a team (whichever way): the team's owners and admins get `team.member-join`,
 * and it goes into the team queue, where clients read it with `GET /teams/notifications`.
 */
export async function announceMemberJoin(env: Env, db: Db, config: Config, team: string, user: string): Promise<void> {
  const event = teamEvent('team.member-join', team, { user });
  const admins = await teamStore.withRoles(db, team, TEAM_ADMINS);
  await publish(env, config, admins.map((u) => ({ user: u })), event);
  await pushTeamEvent(db, team, event);
}
