import type { QualifiedId } from '../../api/schemas/common.js';
import { type BatchStatement, database, type Db } from '../../db/client.js';
import type { Change } from '../../effects/commit-change.js';
import { conversationListsEffect } from '../../../shared/effects/conversation-lists-effect.js';
import { groupBy } from '../../../shared/group-by.js';
import { conversationIdsIn, conversationIdsOf } from './conversation-lists.js';
import { conversationIndexStore } from './conversation-index-store.js';
import { type ConversationRow, conversationStore, type MemberRow } from './conversation-store.js';

/** wire's conversation type of a user's self conversation. */
const SELF_CONVERSATION = 1;
/** Conversations read at once when going through a user's list. */
const PAGE = 100;

const writes = (statements: BatchStatement[]): Change => ({ statements, effects: [] });

/** Writes that change who is in a conversation, with the word to the members' own lists. */
const membership = (
  statements: BatchStatement[],
  conv: QualifiedId,
  joined: readonly QualifiedId[],
  left: readonly QualifiedId[],
): Change => ({ statements, effects: conversationListsEffect(conv, joined, left) });

const userOf = (m: MemberRow): QualifiedId => ({ id: m.userId, domain: m.userDomain });
const convOf = (m: MemberRow): QualifiedId => ({ id: m.convId, domain: m.convDomain });

const createStatements = (db: Db, row: ConversationRow, members: MemberRow[], here: string): BatchStatement[] => [
  conversationStore.insert(db, row).onConflictDoNothing(),
  ...conversationStore.addMembers(db, members),
  ...conversationIndexStore.created(db, row, here),
  ...conversationIndexStore.added(db, members),
];

/**
 * galley's one way to its conversations and their members. Reads are answers; writes are changes
 * the caller commits with the rest of its change (commitChange), so that where the conversations
 * live (today D1's `conversations` and `conversation_members`, next each conversation's object,
 * docs/architecture.md "Conversation objects own their conversation") is this module's to know.
 * Each local user's list of their conversations is in their Account object, told by the changes.
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

  /** A conversation with its first members (`here`: this backend's domain); nothing if it exists already. */
  create(env: Env, row: ConversationRow, members: MemberRow[], here: string): Change {
    return membership(createStatements(database(env.DB), row, members, here), row, members.map(userOf), []);
  },
  /**
   * The same, as statements of a D1 batch made elsewhere: a new account's, with its self
   * conversation. Its list learns of it when its Account object first opens (objects/Account.ts).
   */
  createInBatch(db: Db, row: ConversationRow, members: MemberRow[]): BatchStatement[] {
    return createStatements(db, row, members, row.domain);
  },
  update(env: Env, c: QualifiedId, patch: Partial<ConversationRow>): Change {
    return writes([conversationStore.update(database(env.DB), c, patch)]);
  },
  /** The conversation and its members (`members`, as the caller read them). */
  remove(env: Env, c: QualifiedId, members: readonly MemberRow[]): Change {
    const db = database(env.DB);
    const statements = [...conversationStore.remove(db, c), ...conversationIndexStore.gone(db, c)];
    return membership(statements, c, [], members.map(userOf));
  },
  /** Members joining (of one conversation or several); those already in stay as they are. */
  addMembers(env: Env, rows: MemberRow[]): Change {
    const told = [...groupBy(rows, (m) => `${m.convDomain}/${m.convId}`).values()].flatMap((ms) =>
      conversationListsEffect(convOf(ms[0]!), ms.map(userOf), []),
    );
    const db = database(env.DB);
    const statements = [...conversationStore.addMembers(db, rows), ...conversationIndexStore.added(db, rows)];
    return { statements, effects: told };
  },
  removeMembers(env: Env, c: QualifiedId, users: readonly QualifiedId[]): Change {
    const db = database(env.DB);
    const statements = [
      ...conversationStore.removeMembers(db, c, users),
      ...conversationIndexStore.removed(db, c, users),
    ];
    return membership(statements, c, [], users);
  },
  updateMember(env: Env, c: QualifiedId, u: QualifiedId, patch: Partial<MemberRow>): Change {
    return writes([conversationStore.updateMember(database(env.DB), c, u, patch)]);
  },

  /** The conversations of a team (ids only). */
  ofTeam(env: Env, team: string): Promise<QualifiedId[]> {
    return conversationIndexStore.ofTeam(database(env.DB), team);
  },
  /** The bots of a service, with their conversations; only those of the team's conversations when given. */
  botsOf(env: Env, service: { id: string; provider: string }, team?: string) {
    return conversationIndexStore.botsOf(database(env.DB), service, team);
  },
  /** The conversations with members from `userDomain`, those `convDomain` owns when given. */
  withMembersFrom(env: Env, userDomain: string, convDomain?: string): Promise<QualifiedId[]> {
    return conversationIndexStore.withMembersFrom(database(env.DB), userDomain, convDomain);
  },
  /** The conversations `domain` owns that this backend keeps a copy of. */
  ownedBy(env: Env, domain: string): Promise<QualifiedId[]> {
    return conversationIndexStore.copiesOf(database(env.DB), domain);
  },
  /**
   * Whether the local user is in a conversation other than their self one that speaks MLS (or is
   * moving to it): their list, a page at a time (only legal hold's approval asks).
   */
  async inMlsConversation(env: Env, user: QualifiedId): Promise<boolean> {
    for (let after: QualifiedId | undefined; ; ) {
      const page = await conversationIdsOf(env, user, PAGE, after);
      const convs = await conversationStore.getMany(database(env.DB), page);
      if (convs.some((c) => c.protocol !== 'proteus' && c.type !== SELF_CONVERSATION)) return true;
      if (page.length < PAGE) return false;
      after = page.at(-1);
    }
  },
  /** The local user's conversations of one domain, ordered by id after `start`: older versions' pages. */
  idsIn(env: Env, user: QualifiedId, domain: string, size: number, start?: string): Promise<string[]> {
    return conversationIdsIn(env, user, domain, size, start);
  },
  /** The local user's conversations ordered by (domain, id), after a position: the list-ids pages. */
  idsOf(env: Env, user: QualifiedId, size: number, after?: QualifiedId): Promise<QualifiedId[]> {
    return conversationIdsOf(env, user, size, after);
  },
};
