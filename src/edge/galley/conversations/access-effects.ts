import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { database } from '../../db/client.js';
import type { Change } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { teamStore } from '../teams/team-store.js';
import { conversationStore, type ConversationRow, type MemberRow } from './conversation-store.js';
import { membersEventEffect } from './notify.js';
import { membershipChangedEffect } from '../messaging/conversation-object.js';
import { serviceOf } from './member-data.js';
import { deps } from '../../api/deps.js';

/**
 * After an access change: members the new access roles no longer admit leave, with reason
 * `removed` from the user who made the change (the caller, or a member of another backend
 * through update-conversation). Guests (users without a verified identity) need `guest`; in team
 * conversations, non-members of the team (users of other backends among them) need `non_team_member`;
 * bots need `service`. Returns the removal as a change, for the access change's own commit.
 */
export async function kickDisallowedMembers(
  c: Context<AppEnv>,
  conv: ConversationRow,
  members: MemberRow[],
  actor: QualifiedId = selfQualified(c),
): Promise<Change> {
  const db = database(c.env.DB);
  const users = await deps(c).users.accounts(members.map((m) => ({ id: m.userId, domain: m.userDomain })));
  const guests = new Set(users.filter((u) => !u.activated).map((u) => u.id));
  const inTeam =
    conv.team === null
      ? new Set<string>()
      : await teamStore.membersAmong(
          db,
          conv.team,
          members.map((m) => m.userId),
        );
  const out = members.filter((m) =>
    serviceOf(m) !== undefined
      ? !conv.accessRole.includes('service')
      : (guests.has(m.userId) && !conv.accessRole.includes('guest')) ||
        (conv.team !== null && !inTeam.has(m.userId) && !conv.accessRole.includes('non_team_member')) ||
        (conv.team !== null && inTeam.has(m.userId) && !conv.accessRole.includes('team_member')),
  );
  if (out.length === 0) return { statements: [], effects: [] };
  const targets = out.map((m) => ({ id: m.userId, domain: m.userDomain }));
  const data = { qualified_user_ids: targets, user_ids: targets.map((t) => t.id), reason: 'removed' };
  const left = conversationEvent('conversation.member-leave', conv, actor, data, { team: conv.team });
  return {
    statements: conversationStore.removeMembers(db, conv, targets),
    effects: [membershipChangedEffect(conv, targets), membersEventEffect(c, conv, members, left)],
  };
}
