import type { Config } from '../../../shared/config/index.js';
import type { BatchStatement, Db } from '../../db/client.js';
import { publish } from '../../events/publish.js';
import { teamEvent } from '../../events/team-events.js';
import { TEAM_ADMINS } from './team-access.js';
import { teamStore } from './team-store.js';
import { pushTeamEvent } from './team-queue.js';

/** How a team hears that a user joined: a write for the join's batch, and a push once it is committed. */
export interface MemberJoinNotice {
  /** `team.member-join` into the team queue, where clients read it with `GET /teams/notifications`. */
  statement: BatchStatement;
  /**
   * `team.member-join` to the connected sockets of the new member and the team's owners and admins
   * only (as wire-server pushes it, transient): nothing to carry out again after a crash.
   */
  push: (env: Env, config: Config) => Promise<void>;
}

/** The notice of a user joining a team (whichever way), for the caller to write with the join. */
export async function memberJoinNotice(db: Db, team: string, user: string, id?: string): Promise<MemberJoinNotice> {
  const event = teamEvent('team.member-join', team, { user });
  const admins = await teamStore.withRoles(db, team, TEAM_ADMINS);
  const recipients = [...new Set([user, ...admins])].map((u) => ({ user: u }));
  return {
    statement: pushTeamEvent(db, team, event, id),
    push: (env, config) => publish(env, config, recipients, event, { transient: true }),
  };
}
