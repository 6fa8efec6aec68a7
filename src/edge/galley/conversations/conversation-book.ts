import type { QualifiedId } from '../../api/schemas/common.js';
import { type BatchStatement, database } from '../../db/client.js';
import type { Change } from '../../effects/commit-change.js';
import { defineEffect, type Effect } from '../../effects/effect.js';
import { askEach } from '../../../shared/chunked.js';
import type {
  ConversationOp,
  ConversationRow,
  MemberRow,
  Standing,
} from '../../../shared/conversations/conversation-ops.js';
import { conversationListsEffect } from '../../../shared/effects/conversation-lists-effect.js';
import { groupBy } from '../../../shared/group-by.js';
import { conversationIdsIn, conversationIdsOf } from './conversation-lists.js';
import { conversationIndexStore } from './conversation-index-store.js';
import { conversationObject } from './conversation-stub.js';

/** wire's conversation type of a user's self conversation. */
const SELF_CONVERSATION = 1;
/** Conversations read at once when going through a user's list. */
const PAGE = 100;

const ref = (c: QualifiedId): QualifiedId => ({ id: c.id, domain: c.domain });

/**
 * galley's writes of a conversation, applied by its object in one transaction. The change's mark
 * names them: carried out again (the sweep, after a crash), they are applied once.
 */
const conversationWrites = defineEffect(
  'conversation-writes',
  async ({ env, mark }, a: { conv: QualifiedId; ops: ConversationOp[] }) => {
    await conversationObject(env, a.conv).apply(a.conv, a.ops, JSON.stringify(mark()));
  },
);

/**
 * A team's list of its conversations follows them: it is in the partition of the team's slot,
 * apart from the changes' batches (in partition 0). A conversation gone (`team` undefined) leaves it.
 */
const teamList = defineEffect('team-conversation-list', async ({ env }, a: { conv: QualifiedId; team?: string }) => {
  const db = database(env.DB);
  await (a.team === undefined
    ? conversationIndexStore.leaveTeam(db, a.conv)
    : conversationIndexStore.enterTeam(db, a.team, a.conv));
});

/** A change of the conversation: its object's writes, the directory's indexes, the members' lists. */
function change(
  conv: QualifiedId,
  ops: ConversationOp[],
  statements: BatchStatement[],
  joined: readonly QualifiedId[] = [],
  left: readonly QualifiedId[] = [],
  indexes: Effect[] = [],
): Change {
  return {
    statements,
    effects: [conversationWrites({ conv: ref(conv), ops }), ...indexes, ...conversationListsEffect(conv, joined, left)],
  };
}

const userOf = (m: MemberRow): QualifiedId => ({ id: m.userId, domain: m.userDomain });
const convOf = (m: MemberRow): QualifiedId => ({ id: m.convId, domain: m.convDomain });

/**
 * galley's one way to its conversations and their members. Each conversation is its object's
 * (docs/architecture.md "Conversation objects own their conversation"): reads ask it, writes are
 * changes the caller commits with the rest of its change (commitChange), whose effect the object
 * applies; what is asked across conversations is in the directory's indexes
 * (conversation-index-store.ts), written in the change's batch. Each local user's list of their
 * conversations is in their Account object, told by the changes.
 */
export const conversationBook = {
  async get(env: Env, c: QualifiedId): Promise<ConversationRow | undefined> {
    return conversationObject(env, c).row(ref(c));
  },
  /** The row, these users' memberships, and whether a member is of another domain than `local` (see Standing). */
  standing(env: Env, c: QualifiedId, users: readonly QualifiedId[], local: string): Promise<Standing | undefined> {
    return conversationObject(env, c).standing(ref(c), users.map(ref), local);
  },
  async getMany(env: Env, ids: readonly QualifiedId[]): Promise<ConversationRow[]> {
    const rows = await askEach(ids, (c) => this.get(env, c));
    return rows.filter((r): r is ConversationRow => r !== undefined);
  },
  /** The members, oldest first. */
  async members(env: Env, c: QualifiedId): Promise<MemberRow[]> {
    return (await conversationObject(env, c).conversation(ref(c)))?.members ?? [];
  },
  async membersOfMany(env: Env, ids: readonly QualifiedId[]): Promise<MemberRow[]> {
    return (await askEach(ids, (c) => this.members(env, c))).flat();
  },
  async member(env: Env, c: QualifiedId, u: QualifiedId): Promise<MemberRow | undefined> {
    return (await this.members(env, c)).find((m) => m.userId === u.id && m.userDomain === u.domain);
  },
  /** One user's memberships in several conversations of one domain. */
  async memberships(env: Env, u: QualifiedId, convDomain: string, convIds: readonly string[]): Promise<MemberRow[]> {
    const found = await askEach(convIds, (id) => this.member(env, { id, domain: convDomain }, u));
    return found.filter((m): m is MemberRow => m !== undefined);
  },

  /** A conversation with its first members (`here`: this backend's domain); nothing if it exists already. */
  create(env: Env, row: ConversationRow, members: MemberRow[], here: string): Change {
    const db = database(env.DB);
    const indexes = [...conversationIndexStore.created(db, row, here), ...conversationIndexStore.added(db, members)];
    const team = row.team === null ? [] : [teamList({ conv: ref(row), team: row.team })];
    return change(row, [{ create: { row, members } }], indexes, members.map(userOf), [], team);
  },
  /** A new account's self conversation (no team, owned here, its user its one member: no index). */
  createSelf(row: ConversationRow, members: MemberRow[]): Change {
    return change(row, [{ create: { row, members } }], [], members.map(userOf));
  },
  update(_env: Env, c: QualifiedId, patch: Partial<ConversationRow>): Change {
    return change(c, [{ update: patch }], []);
  },
  /** The conversation and its members (`members`, as the caller read them). */
  remove(env: Env, c: QualifiedId, members: readonly MemberRow[]): Change {
    const gone = conversationIndexStore.gone(database(env.DB), c);
    return change(c, [{ remove: true }], gone, [], members.map(userOf), [teamList({ conv: ref(c) })]);
  },
  /** Members joining (of one conversation or several); those already in stay as they are. */
  addMembers(env: Env, rows: MemberRow[]): Change {
    const db = database(env.DB);
    const each = [...groupBy(rows, (m) => `${m.convDomain}/${m.convId}`).values()].map((ms) =>
      change(convOf(ms[0]!), [{ addMembers: ms }], conversationIndexStore.added(db, ms), ms.map(userOf)),
    );
    return { statements: each.flatMap((c) => c.statements), effects: each.flatMap((c) => c.effects) };
  },
  removeMembers(env: Env, c: QualifiedId, users: readonly QualifiedId[]): Change {
    const statements = conversationIndexStore.removed(database(env.DB), c, users);
    return change(c, [{ removeMembers: users.map(ref) }], statements, [], users);
  },
  updateMember(_env: Env, c: QualifiedId, u: QualifiedId, patch: Partial<MemberRow>): Change {
    return change(c, [{ updateMember: { user: ref(u), patch } }], []);
  },

  /** The conversations of a team (ids only). */
  ofTeam(env: Env, team: string): Promise<QualifiedId[]> {
    return conversationIndexStore.ofTeam(database(env.DB), team);
  },
  /** The bots of a service, with their conversations; only those of the team's conversations when given. */
  async botsOf(env: Env, service: { id: string; provider: string }, team?: string) {
    const db = database(env.DB);
    const bots = await conversationIndexStore.botsOf(db, service);
    if (team === undefined) return bots;
    const ofTeam = new Set((await conversationIndexStore.ofTeam(db, team)).map((c) => `${c.domain}/${c.id}`));
    return bots.filter((b) => ofTeam.has(`${b.conv.domain}/${b.conv.id}`));
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
      const convs = await this.getMany(env, page);
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
