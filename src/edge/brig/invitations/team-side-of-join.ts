import { database, runBatch } from '../../db/client.js';
import { defineEffect } from '../../effects/effect.js';
import { memberJoinNotice } from '../../galley/face.js';
import { invitationStore } from './invitation-store.js';

/**
 * The team's side of a user joining it by invitation with an account of their own: the
 * invitation used up and the team's `team.member-join`, in the partition of the team's slot, once
 * the user's side (their row and membership, in their own slot's partition) is committed.
 * Carried out again after a crash, it writes the same notice (`notice`, its id) once.
 */
export const teamSideOfJoin = defineEffect(
  'team-side-of-join',
  async ({ env, config }, a: { team: string; user: string; invitation: string; notice: string }) => {
    const db = database(env.DB);
    const joined = await memberJoinNotice(db, a.team, a.user, a.notice);
    await runBatch(db, [invitationStore.remove(db, { id: a.invitation, team: a.team }), joined.statement]);
    await joined.push(env, config);
  },
);
