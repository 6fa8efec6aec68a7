import { ApiError, type ErrorSpec } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { Db } from '../../db/client.js';
import { hasHiddenPerm, hasPerm } from '../../api/team-permissions.js';
import { teamStore } from '../teams/team-store.js';
import type { ConversationRow, MemberRow } from './conversation-store.js';
import { conversationBook } from './conversation-book.js';
import { deniedActionName, ROLE_ADMIN, roleAllows, type ConversationAction } from './roles.js';
import type { Deps } from '../../api/deps.js';

export interface Membership {
  conv: ConversationRow;
  members: MemberRow[];
  me: MemberRow;
}

/** A conversation as somebody sees it who may be outside it: `me` is their membership, if any. */
export type Viewing = Omit<Membership, 'me'> & { me: MemberRow | undefined };

/** The conversation (404 `no-conversation` when it does not exist) and `who`'s membership, if any. */
export async function loadMembershipOf(d: Deps, id: QualifiedId, who: QualifiedId): Promise<Viewing> {
  const conv = await conversationBook.get(d.env, id);
  if (conv === undefined) throw new ApiError(galleyErrors.noConversation);
  const members = await conversationBook.members(d.env, id);
  return { conv, members, me: members.find((m) => m.userId === who.id && m.userDomain === who.domain) };
}

/**
 * The conversation and `who`'s membership: 404 `no-conversation` when it does not exist,
 * `whenNotMember` (404 for actions, 403 `access-denied` for reading) when they are not in it.
 */
export async function requireMember(
  d: Deps,
  id: QualifiedId,
  who: QualifiedId,
  whenNotMember: ErrorSpec = galleyErrors.noConversation,
): Promise<Membership> {
  const { conv, members, me } = await loadMembershipOf(d, id, who);
  if (me === undefined) throw new ApiError(whenNotMember);
  return { conv, members, me };
}

/**
 * wire's viewer of a conversation: a member, or an admin of a channel's team who is not in it
 * (ManageChannels: they read the channel, rename it, add and remove its members); anyone else gets
 * `whenNotMember`.
 */
export async function requireViewer(
  d: Deps,
  id: QualifiedId,
  who: QualifiedId,
  whenNotMember: ErrorSpec = galleyErrors.noConversation,
): Promise<Viewing> {
  const viewing = await loadMembershipOf(d, id, who);
  if (viewing.me === undefined && !(await managesChannel(d.db, viewing.conv, who.id)))
    throw new ApiError(whenNotMember);
  return viewing;
}

/** 403 `action-denied` naming the action the caller's conversation role lacks. */
export function requireAction(m: MemberRow, action: ConversationAction): void {
  if (!roleAllows(m.role, action))
    throw new ApiError(galleyErrors.actionDenied, `Insufficient authorization (missing ${deniedActionName(action)})`);
}

/** Whether the user manages the conversation as an admin or owner of its channel's team (wire's ManageChannels). */
export async function managesChannel(db: Db, conv: ConversationRow, user: string): Promise<boolean> {
  if (conv.groupConvType !== 'channel' || conv.team === null) return false;
  const role = await teamStore.roleOf(db, conv.team, user);
  return role !== undefined && hasHiddenPerm(role, 'ManageChannels');
}

/** wire's conversation admin: the `wire_admin` role, or a manager of the channel (else 403 `access-denied`). */
export async function requireConversationAdmin(db: Db, m: Membership): Promise<void> {
  if (m.me.role !== ROLE_ADMIN && !(await managesChannel(db, m.conv, m.me.userId)))
    throw new ApiError(galleyErrors.accessDenied);
}

/**
 * Who may add members, as wire's galley decides: the conversation role's `add_conversation_member`,
 * except on a channel, where any member of its team may add when its add_permission is `everyone`
 * and the team's admins (ManageChannels) always may. On a team's other groups a team member also
 * needs AddRemoveConvMember, which external partners lack (403 `invalid-op`, as wire).
 */
export async function requireAddMembers(db: Db, conv: ConversationRow, me: MemberRow | undefined): Promise<void> {
  if (me === undefined) return; // a manager of the channel from outside it (requireViewer)
  const teamRole = conv.team === null ? undefined : await teamStore.roleOf(db, conv.team, me.userId);
  if (conv.groupConvType === 'channel' && teamRole !== undefined) {
    if (conv.addPermission === 'everyone' || hasHiddenPerm(teamRole, 'ManageChannels')) return;
    requireAction(me, 'add_conversation_member');
    return;
  }
  requireAction(me, 'add_conversation_member');
  if (teamRole !== undefined && !hasPerm(teamRole, 'AddRemoveConvMember'))
    throw new ApiError(galleyErrors.invalidOp, 'External partners cannot add members');
}

/**
 * Changes to a conversation another backend owns go through that backend; those this one does
 * not send there yet are refused (403 `invalid-op`) rather than made to the local copy only.
 */
export function requireOwnedHere(d: Deps, conv: ConversationRow): void {
  if (conv.domain !== d.domain)
    throw new ApiError(galleyErrors.invalidOp, 'Only the backend that owns the conversation can change it');
}
