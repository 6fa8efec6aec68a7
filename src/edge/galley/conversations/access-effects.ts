import type { QualifiedId } from '../../api/schemas/common.js';
import { type Change, joinChanges } from '../../effects/commit-change.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { teamStore } from '../teams/team-store.js';
import type { ConversationRow, MemberRow } from './conversation-store.js';
import { conversationBook } from './conversation-book.js';
import { tellMembersEffect } from './notify.js';
import { membershipChangedEffect } from './conversation-object.js';
import { serviceOf } from './member-data.js';
import type { Deps } from '../../api/deps.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { memberLeaveData } from '../../../shared/events/member-events.js';

/**
 * After an access change: members the new access roles no longer admit leave, with reason
 * `removed` from the user who made the change (the caller, or a member of another backend
 * through update-conversation). Guests (users without a verified identity) need `guest`; in team
 * conversations, non-members of the team (users of other backends among them) need `non_team_member`;
 * bots need `service`. Returns the removal as a change, for the access change's own commit.
 */
export async function kickDisallowedMembers(
  d: Deps,
  conv: ConversationRow,
  members: readonly MemberRow[],
  actor: QualifiedId,
  origin?: AccessClaims,
): Promise<Change> {
  const { db } = d;
  const users = await d.users.accounts(members.map((m) => ({ id: m.userId, domain: m.userDomain })));
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
  const data = memberLeaveData(targets, 'removed');
  const left = conversationEvent('conversation.member-leave', conv, actor, data, { team: conv.team });
  return joinChanges(conversationBook.removeMembers(d.env, conv, targets), {
    statements: [],
    effects: [membershipChangedEffect(conv, targets), tellMembersEffect(conv, members, left, origin)],
  });
}
