/**
 * galley's face: what other components may ask of teams, team features and conversations.
 * Team questions are local and take bare ids (of teams and their members); questions about
 * conversations and their users take qualified ids.
 */
import type { Change } from '../effects/commit-change.js';
import type { Config } from '../../shared/config/index.js';
import type { BatchStatement, Db } from '../db/client.js';
import type { TeamRole } from '../../shared/db/schema.js';
import type { QualifiedId } from '../api/schemas/common.js';
import type { FeatureName, FeatureStatus } from './features/registry.js';
import { serverFeatures } from './features/team-features.js';
import { newSelfConversation } from './conversations/self-conversation.js';
import { guardLegalholdOnJoin } from './legalhold/join-guard.js';
import { legalholdStore, type LegalholdStatus } from './legalhold/legalhold-store.js';
import { teamStore, type NewTeam, type NewTeamMember, type TeamRow } from './teams/team-store.js';

/** Whether a feature is on: `enabled` or `disabled`. */
export type { FeatureStatus };

/** A team, if it exists. */
export function teamById(db: Db, team: string): Promise<TeamRow | undefined> {
  return teamStore.byId(db, team);
}

/** A user's role in a team; undefined when they are not a member. */
export function roleInTeam(db: Db, team: string, user: string): Promise<TeamRole | undefined> {
  return teamStore.roleOf(db, team, user);
}

/** How many members a team has. */
export function teamSize(db: Db, team: string): Promise<number> {
  return teamStore.size(db, team);
}

/** Up to `limit` members of a team (user ids). */
export function teamMemberIds(db: Db, team: string, limit: number): Promise<string[]> {
  return teamStore.memberIds(db, team, limit);
}

/** The legal hold statuses of those of these users who are team members (others: no consent). */
export function legalholdStatuses(db: Db, users: readonly string[]): Promise<Map<string, LegalholdStatus>> {
  return legalholdStore.statuses(db, users);
}

/** Whether a user with this legal hold status (none: not a team member) consented to legal hold. */
export { consented as legalholdConsented } from './legalhold/join-guard.js';

/**
 * 403 `missing-legalhold-consent` when one of two users is under legal hold and the other has not
 * consented to it (they may not connect).
 */
export function guardLegalholdBetween(db: Db, config: Config, a: string, b: string): Promise<void> {
  return guardLegalholdOnJoin(db, config, { present: [a], joining: [b] });
}

/** The statements creating a team with its creator as owner, for the caller's batch. */
export function createTeam(db: Db, team: NewTeam): readonly BatchStatement[] {
  return teamStore.create(db, team);
}

/** The statement adding a member to a team, for the caller's batch. */
export function addTeamMember(db: Db, member: NewTeamMember): BatchStatement {
  return teamStore.addMember(db, member);
}

/** The change creating a new account's Proteus self conversation, for the account's change. */
export function accountSelfConversation(user: QualifiedId): Change {
  return newSelfConversation(user);
}

/** The statement removing a user from every team, for the caller's batch (account deletion). */
export function removeFromTeams(db: Db, user: string): BatchStatement {
  return teamStore.removeMember(db, user);
}

/** The server's status of a feature: what applies to teams that set none. */
export function serverFeatureStatus(config: Config, name: FeatureName): FeatureStatus {
  return serverFeatures(config)[name].status;
}

/** Tells a team that a user joined it: `team.member-join` to them and its admins, and into the team queue. */
export { memberJoinNotice, type MemberJoinNotice } from './teams/member-join.js';
/** The id of a notice of the team queue chosen ahead of its write (so a retried write makes it once). */
export { nextTeamNoticeId } from './teams/team-queue.js';
/** A team as the API shows it (`Team`). */
export { teamJson } from './teams/team-json.js';
/** Whether a feature is on for a user's team, or on the server for users without one. */
export { conferenceCallingEnabled, featureEnabled, teamFeature } from './features/team-features.js';
/** Whether a user must give a second-factor code (the team's sndFactorPasswordChallenge). */
export { sndFactorRequired } from './features/snd-factor.js';
/** Removes team notifications older than the notification TTL (the cron job); returns how many. */
export { sweepExpiredTeamNotifications } from './teams/team-queue.js';
/** A connection request: the connect conversation holds the requester, who hears the request; returns its id. */
export { openConnectConversation } from './conversations/connect-conversation.js';
/** An accepted (or unblocked) connection: the user joins, and with the other user there it is their 1:1. */
export { acceptOne2One } from './conversations/one2one.js';
/** A blocked connection, or a cancelled request: the user leaves the two users' 1:1, silently. */
export { leaveOne2One } from './conversations/one2one.js';
export { upsertRemoteOne2One } from './federation/remote-one2one.js';
/** What the other remotes are told when this backend stops federating with one (on-connection-removed). */
export { connectionRemovedNotifications } from './federation/connection-removed.js';
/** A deleted user leaves every conversation (a change); the other members (and `alsoTell`) hear of it. */
export { leavingAllConversations } from './conversations/user-deleted.js';
/** A user's clients changed: every conversation of theirs reads members and clients again. */
export { clientsChangedEffect } from './conversations/conversation-object.js';
/** Users of the conversations shared with other backends' users (de-federation's recipients). */
export { localUsersAlongside } from './federation/defederation.js';
/** This backend stopped federating with another: its users leave conversations here, copies of its go. */
export { forgetConversationsWith } from './federation/defederation.js';
/** A member's new role, announced to the team's admins. */
export { changeMemberRole } from './teams/member-changes.js';
/** Who hears that a member left the team, and telling them with the change (the account's deletion is brig's). */
export { memberLeaveAudience, memberLeaveEffect } from './teams/member-changes.js';

/** Bots in conversations: joining, leaving, and the queue that carries their events to their services. */
export { botsOfService, conversationWithMembers, joinBot, leaveBot } from './bots/bot-members.js';
export { botConversationView } from './bots/bot-conversation.js';
export { serviceOf } from './conversations/member-data.js';
export { ROLE_ADMIN } from './conversations/roles.js';
export type { BotDelivery } from './conversations/bot-deliveries.js';
export { wakeHeldConversations } from './conversations/conversation-object.js';
