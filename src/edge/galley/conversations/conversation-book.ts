import type { QualifiedId } from '../../api/schemas/common.js';
import { type BatchStatement, database, type Db } from '../../db/client.js';
import type { Change } from '../../effects/commit-change.js';
import { type ConversationRow, conversationStore, type MemberRow } from './conversation-store.js';

const writes = (statements: BatchStatement[]): Change => ({ statements, effects: [] });

const createStatements = (db: Db, row: ConversationRow, members: MemberRow[]): BatchStatement[] => [
  conversationStore.insert(db, row).onConflictDoNothing(),
  ...conversationStore.addMembers(db, members),
];

/**
 * galley's one way to its conversations and their members. Reads are answers; writes are changes
 * the caller commits with the rest of its change (commitChange), so that where the conversations
 * live (today D1's `conversations` and `conversation_members`, next each conversation's object,
 * docs/architecture.md "Conversation objects own their conversation") is this module's to know.
 */
export const conversationBook = {
  get(env: Env, c: QualifiedId): Promise<ConversationRow | undefined> {
    return conversationStore.get(database(env.DB), c);
  },
  getMany(env: Env, ids: readonly QualifiedId[]): Promise<ConversationRow[]> {
    return conversationStore.getMany(database(env.DB), ids);
  },
  /** The members, oldest first. */
  members(env: Env, c: QualifiedId): Promise<MemberRow[]> {
    return conversationStore.members(database(env.DB), c);
  },
  membersOfMany(env: Env, ids: readonly QualifiedId[]): Promise<MemberRow[]> {
    return conversationStore.membersOfMany(database(env.DB), ids);
  },
  member(env: Env, c: QualifiedId, u: QualifiedId): Promise<MemberRow | undefined> {
    return conversationStore.member(database(env.DB), c, u);
  },
  /** One user's memberships in several conversations of one domain. */
  memberships(env: Env, u: QualifiedId, convDomain: string, convIds: readonly string[]): Promise<MemberRow[]> {
    return conversationStore.memberships(database(env.DB), u, convDomain, convIds);
  },

  /** A conversation with its first members; nothing if it exists already. */
  create(env: Env, row: ConversationRow, members: MemberRow[]): Change {
    return writes(createStatements(database(env.DB), row, members));
  },
  /** The same, as statements of a D1 batch made elsewhere: a new account's, with its self conversation. */
  createInBatch: createStatements,
  update(env: Env, c: QualifiedId, patch: Partial<ConversationRow>): Change {
    return writes([conversationStore.update(database(env.DB), c, patch)]);
  },
  /** The conversation and its members. */
  remove(env: Env, c: QualifiedId): Change {
    return writes(conversationStore.remove(database(env.DB), c));
  },
  /** Members joining (of one conversation or several); those already in stay as they are. */
  addMembers(env: Env, rows: MemberRow[]): Change {
    return writes(conversationStore.addMembers(database(env.DB), rows));
  },
  removeMembers(env: Env, c: QualifiedId, users: readonly QualifiedId[]): Change {
    return writes(conversationStore.removeMembers(database(env.DB), c, users));
  },
  updateMember(env: Env, c: QualifiedId, u: QualifiedId, patch: Partial<MemberRow>): Change {
    return writes([conversationStore.updateMember(database(env.DB), c, u, patch)]);
  },

  /** The conversations of a team (ids only). */
  ofTeam(env: Env, team: string): Promise<QualifiedId[]> {
    return conversationStore.ofTeam(database(env.DB), team);
  },
  /** The bots of a service, with their conversations; only those of the team's conversations when given. */
  botsOf(env: Env, service: { id: string; provider: string }, team?: string) {
    return conversationStore.botsOf(database(env.DB), service, team);
  },
  /** The conversations with members from `userDomain`, those `convDomain` owns when given. */
  withMembersFrom(env: Env, userDomain: string, convDomain?: string): Promise<QualifiedId[]> {
    return conversationStore.withMembersFrom(database(env.DB), userDomain, convDomain);
  },
  /** The conversations `domain` owns that this backend keeps a copy of. */
  ownedBy(env: Env, domain: string): Promise<QualifiedId[]> {
    return conversationStore.ownedBy(database(env.DB), domain);
  },
  /** Whether the user is in a conversation other than their self one that speaks MLS (or is moving to it). */
  inMlsConversation(env: Env, user: QualifiedId): Promise<boolean> {
    return conversationStore.inMlsConversation(database(env.DB), user);
  },
  /** The user's conversations of one domain, ordered by id after `start`: older versions' pages. */
  idsIn(env: Env, user: QualifiedId, domain: string, size: number, start?: string): Promise<string[]> {
    return conversationStore.idsIn(database(env.DB), user, domain, size, start);
  },
  /** The user's conversations ordered by (domain, id), after a position: the list-ids pages. */
  idsOf(env: Env, user: QualifiedId, size: number, after?: QualifiedId): Promise<QualifiedId[]> {
    return conversationStore.idsOf(database(env.DB), user, size, after);
  },
};
