// The MLS group tables (mls_group_clients, mls_proposals, mls_group_infos, mls_subconversations)
// and the group columns of conversations (epoch, cipher suite, group id), in the Conversation
// object's own SQLite (the tables D1 had, conversation-tables.ts): this store is their one writer,
// under the object's order. Writes are returned as statements, which the caller runs in one
// transaction with its outbox (commit-with-deliveries.ts).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { QualifiedRef } from '../../../shared/proteus/types.js';
import { fromBase64, toBase64 } from '../../../shared/base64.js';
import { subconversationGroupId } from '../../../shared/mls/group-id.js';
import {
  conversationMembers,
  conversations,
  mlsGroupClients,
  mlsGroupInfos,
  mlsProposals,
  mlsSubconversations,
} from '../../../shared/db/schema.js';
import type { ConversationDb, Write } from '../../db/conversation-db.js';
import { BytesParts } from '../../db/bytes-parts.js';
import { TextParts } from '../../db/text-parts.js';
import type { LegacyConversation } from '../legacy-conversation-store.js';
import type { CommitWrites, GroupRow, LastCommit, PendingProposal } from './group-row.js';
import { rosterKeptStore } from './roster-kept-store.js';

const convKey = (conv: QualifiedRef) => and(eq(conversations.domain, conv.domain), eq(conversations.id, conv.id));
const subconvKey = (conv: QualifiedRef, subconv: string) =>
  and(
    eq(mlsSubconversations.convDomain, conv.domain),
    eq(mlsSubconversations.convId, conv.id),
    eq(mlsSubconversations.subconv, subconv),
  );

/**
 * Reads a group: the conversation's row and members, then (the subconversation's row and) the
 * group's clients by leaf and pending proposals. A subconversation not created yet reads as its
 * empty group at epoch 0.
 */
export function readGroup(db: ConversationDb, conv: QualifiedRef, subconv?: string): GroupRow | undefined {
  const [row] = db
    .select({
      protocol: conversations.protocol,
      type: conversations.type,
      team: conversations.team,
      groupId: conversations.groupId,
      epoch: conversations.epoch,
      epochTimestamp: conversations.epochTimestamp,
      suite: conversations.cipherSuite,
    })
    .from(conversations)
    .where(convKey(conv))
    .all();
  if (row === undefined) return undefined;
  const members = db
    .select({ domain: conversationMembers.userDomain, user: conversationMembers.userId })
    .from(conversationMembers)
    .where(and(eq(conversationMembers.convDomain, conv.domain), eq(conversationMembers.convId, conv.id)))
    .all();
  const [sub] =
    subconv === undefined
      ? []
      : db
          .select({
            groupId: mlsSubconversations.groupId,
            epoch: mlsSubconversations.epoch,
            epochTimestamp: mlsSubconversations.epochTimestamp,
            suite: mlsSubconversations.cipherSuite,
          })
          .from(mlsSubconversations)
          .where(subconvKey(conv, subconv))
          .all();
  const at =
    subconv === undefined
      ? row
      : (sub ?? {
          groupId: toBase64(subconversationGroupId(conv, subconv)),
          epoch: 0,
          epochTimestamp: null,
          suite: null,
        });
  const groupId = at.groupId;
  const leaves =
    groupId === null ? [] : db.select().from(mlsGroupClients).where(eq(mlsGroupClients.groupId, groupId)).all();
  const proposals =
    groupId === null ? [] : db.select().from(mlsProposals).where(eq(mlsProposals.groupId, groupId)).all();
  const [info] =
    groupId === null
      ? []
      : db
          .select({ lastCommit: mlsGroupInfos.lastCommit })
          .from(mlsGroupInfos)
          .where(eq(mlsGroupInfos.groupId, groupId))
          .all();
  return {
    conv,
    subconv,
    protocol: row.protocol,
    type: row.type,
    team: row.team,
    groupId,
    epoch: at.epoch,
    epochTimestamp: at.epochTimestamp,
    suite: at.suite,
    members: new Set(members.map((m) => `${m.domain}/${m.user}`)),
    leaves: new Map(
      leaves.map((l) => [
        l.leafIndex,
        { index: l.leafIndex, domain: l.userDomain, user: l.user, client: l.client, removalPending: l.removalPending },
      ]),
    ),
    proposals: new Map(
      proposals.map((p) => [p.ref, { ref: p.ref, origin: p.origin, effect: JSON.parse(p.effect), message: p.message }]),
    ),
    lastCommit: info?.lastCommit == null ? undefined : (JSON.parse(info.lastCommit) as LastCommit),
    rosterKept: groupId !== null && rosterKeptStore.kept(db, groupId),
  };
}

const infoParts = new WeakMap<ConversationDb, TextParts>();
/**
 * The parts of GroupInfos kept as base64 text longer than a row: the row keeps the first,
 * `mls_group_info_parts` the rest. Only GroupInfos stored before they were kept as bytes.
 */
function groupInfoParts(db: ConversationDb): TextParts {
  let parts = infoParts.get(db);
  if (parts === undefined) infoParts.set(db, (parts = new TextParts(db.$client.sql, 'mls_group_info_parts', 'TEXT')));
  return parts;
}

const infoBytes = new WeakMap<ConversationDb, BytesParts>();
/**
 * GroupInfos as the bytes the committer sent (a large group's tree is megabytes): the row keeps
 * an empty text and its last commit.
 */
function groupInfoBytes(db: ConversationDb): BytesParts {
  let bytes = infoBytes.get(db);
  if (bytes === undefined) infoBytes.set(db, (bytes = new BytesParts(db.$client.sql, 'mls_group_info_bytes')));
  return bytes;
}

/** Writes dropping these groups' GroupInfos, as bytes or as further parts of base64 text. */
const dropInfoParts = (db: ConversationDb, groups: readonly string[]): Write[] =>
  groups.map((g) => ({
    run: () => {
      groupInfoParts(db).drop(g);
      groupInfoBytes(db).drop(g);
    },
  }));

/** The GroupInfo of a group's current epoch; undefined before its first commit. */
export function groupInfoOf(db: ConversationDb, groupId: string): Uint8Array | undefined {
  const bytes = groupInfoBytes(db).joined(groupId);
  if (bytes !== undefined) return bytes;
  const [row] = db
    .select({ groupInfo: mlsGroupInfos.groupInfo })
    .from(mlsGroupInfos)
    .where(eq(mlsGroupInfos.groupId, groupId))
    .all();
  if (row === undefined || row.groupInfo === '') return undefined;
  const stored = fromBase64(row.groupInfo + groupInfoParts(db).joined(groupId));
  if (stored === undefined) throw new Error(`the stored GroupInfo of ${groupId} is not base64`);
  return stored;
}

/** The statements of a commit; the epoch moves only from the epoch the commit was made in. */
export function commitStatements(db: ConversationDb, w: CommitWrites): Write[] {
  const next = { epochTimestamp: w.now, cipherSuite: w.suite };
  const statements = [
    w.subconv === undefined
      ? db
          .update(conversations)
          .set({ ...next, epoch: sql`${conversations.epoch} + 1` })
          .where(and(convKey(w.conv), eq(conversations.epoch, w.epoch)))
      : db
          .insert(mlsSubconversations)
          .values({
            convDomain: w.conv.domain,
            convId: w.conv.id,
            subconv: w.subconv,
            groupId: w.groupId,
            epoch: 1,
            ...next,
          })
          .onConflictDoUpdate({
            target: [mlsSubconversations.convDomain, mlsSubconversations.convId, mlsSubconversations.subconv],
            set: { ...next, epoch: sql`${mlsSubconversations.epoch} + 1` },
            setWhere: eq(mlsSubconversations.epoch, w.epoch),
          }),
    db.delete(mlsProposals).where(eq(mlsProposals.groupId, w.groupId)),
    db
      .insert(mlsGroupInfos)
      .values({ groupId: w.groupId, groupInfo: '', lastCommit: JSON.stringify(w.lastCommit) })
      .onConflictDoUpdate({
        target: mlsGroupInfos.groupId,
        set: { groupInfo: '', lastCommit: JSON.stringify(w.lastCommit) },
      }),
    {
      run: () => {
        groupInfoParts(db).drop(w.groupId);
        groupInfoBytes(db).replace(w.groupId, w.groupInfo);
      },
    },
    ...w.removedLeaves.map((index) =>
      db
        .delete(mlsGroupClients)
        .where(and(eq(mlsGroupClients.groupId, w.groupId), eq(mlsGroupClients.leafIndex, index))),
    ),
    ...w.addedLeaves.map((l) =>
      db
        .insert(mlsGroupClients)
        .values({ groupId: w.groupId, leafIndex: l.index, userDomain: l.domain, user: l.user, client: l.client }),
    ),
    ...w.joined.map((j) =>
      db
        .insert(conversationMembers)
        .values({
          convDomain: w.conv.domain,
          convId: w.conv.id,
          userDomain: j.domain,
          userId: j.user,
          role: j.role,
          joinedAt: w.now,
        })
        .onConflictDoNothing(),
    ),
    ...w.left.map((l) =>
      db
        .delete(conversationMembers)
        .where(
          and(
            eq(conversationMembers.convDomain, w.conv.domain),
            eq(conversationMembers.convId, w.conv.id),
            eq(conversationMembers.userDomain, l.domain),
            eq(conversationMembers.userId, l.user),
          ),
        ),
    ),
  ];
  return statements;
}

/** The statement storing a proposal of the current epoch. */
export function proposalStatement(db: ConversationDb, groupId: string, epoch: number, p: PendingProposal): Write {
  const row = { groupId, epoch, ref: p.ref, origin: p.origin, effect: JSON.stringify(p.effect), message: p.message };
  return db.insert(mlsProposals).values(row).onConflictDoNothing();
}

/** The statement marking a leaf's client as on its way out (the backend proposed its removal). */
export function removalPendingStatement(db: ConversationDb, groupId: string, leafIndex: number): Write {
  const leaf = and(eq(mlsGroupClients.groupId, groupId), eq(mlsGroupClients.leafIndex, leafIndex));
  return db.update(mlsGroupClients).set({ removalPending: true }).where(leaf);
}

/**
 * The statements of a group's reset: its clients, group info and proposals go, and the
 * conversation (or subconversation) moves to the next generation's group id at epoch 0.
 */
export function resetStatements(
  db: ConversationDb,
  conv: QualifiedRef,
  subconv: string | undefined,
  from: string,
  to: string,
): Write[] {
  const fresh = { groupId: to, epoch: 0, epochTimestamp: null, cipherSuite: null };
  const moved =
    subconv === undefined
      ? db
          .update(conversations)
          .set(fresh)
          .where(and(convKey(conv), eq(conversations.groupId, from)))
      : db
          .insert(mlsSubconversations)
          .values({ convDomain: conv.domain, convId: conv.id, subconv, ...fresh })
          .onConflictDoUpdate({
            target: [mlsSubconversations.convDomain, mlsSubconversations.convId, mlsSubconversations.subconv],
            set: fresh,
          });
  return [
    db.delete(mlsGroupClients).where(eq(mlsGroupClients.groupId, from)),
    db.delete(mlsGroupInfos).where(eq(mlsGroupInfos.groupId, from)),
    ...dropInfoParts(db, [from]),
    db.delete(mlsProposals).where(eq(mlsProposals.groupId, from)),
    rosterKeptStore.forget(db, from),
    moved,
  ];
}

/** The subconversations a conversation has (created by a commit). */
export function subconversationsOf(db: ConversationDb, conv: QualifiedRef): string[] {
  const rows = db
    .select({ subconv: mlsSubconversations.subconv })
    .from(mlsSubconversations)
    .where(and(eq(mlsSubconversations.convDomain, conv.domain), eq(mlsSubconversations.convId, conv.id)))
    .all();
  return rows.map((r) => r.subconv);
}

/** The writes removing every MLS group of a conversation: its own (`groupId`) and its subconversations'. */
export function groupsRemoval(db: ConversationDb, conv: QualifiedRef, groupId: string | null): Write[] {
  const subs = db
    .select({ groupId: mlsSubconversations.groupId })
    .from(mlsSubconversations)
    .where(and(eq(mlsSubconversations.convDomain, conv.domain), eq(mlsSubconversations.convId, conv.id)))
    .all();
  const groups = [groupId, ...subs.map((s) => s.groupId)].filter((g): g is string => g !== null);
  return [
    db
      .delete(mlsSubconversations)
      .where(and(eq(mlsSubconversations.convDomain, conv.domain), eq(mlsSubconversations.convId, conv.id))),
    ...(groups.length === 0
      ? []
      : [
          db.delete(mlsGroupClients).where(inArray(mlsGroupClients.groupId, groups)),
          db.delete(mlsGroupInfos).where(inArray(mlsGroupInfos.groupId, groups)),
          ...dropInfoParts(db, groups),
          db.delete(mlsProposals).where(inArray(mlsProposals.groupId, groups)),
          ...groups.map((g) => rosterKeptStore.forget(db, g)),
        ]),
  ];
}

/** The writes copying a conversation's MLS groups of an earlier version in. */
export function copyGroupsIn(db: ConversationDb, legacy: LegacyConversation): Write[] {
  return [
    ...legacy.subconversations.map((s) => db.insert(mlsSubconversations).values(s).onConflictDoNothing()),
    ...legacy.groupClients.map((g) => db.insert(mlsGroupClients).values(g).onConflictDoNothing()),
    ...legacy.groupInfos.map((g) => db.insert(mlsGroupInfos).values(g).onConflictDoNothing()),
    ...legacy.proposals.map((p) => db.insert(mlsProposals).values(p).onConflictDoNothing()),
  ];
}
