import type { CommitWrites, GroupRow, LastCommit, PendingProposal } from './group-row.js';
import type { QualifiedRef } from '../../../shared/proteus/types.js';
import { toBase64 } from '../../../shared/base64.js';
import { subconversationGroupId } from '../../../shared/mls/group-id.js';

type ConvMeta = {
  protocol: string;
  type: number;
  team: string | null;
  group_id: string | null;
  epoch: number;
  cipher_suite: number | null;
};
type LeafRow = { leaf_index: number; user_domain: string; user: string; client: string; removal_pending: number };
type ProposalRow = { ref: string; origin: 'backend' | 'client'; effect: string; message: string };

/**
 * Reads a group: the conversation's row and members, then (the subconversation's row and) the
 * group's clients by leaf and pending proposals. A subconversation not created yet reads as its
 * empty group at epoch 0.
 */
export async function readGroup(db: D1Database, conv: QualifiedRef, subconv?: string): Promise<GroupRow | undefined> {
  const [meta, members, sub] = await db.batch([
    db
      .prepare(
        'SELECT protocol, type, team, group_id, epoch, cipher_suite FROM conversations WHERE domain = ? AND id = ?',
      )
      .bind(conv.domain, conv.id),
    db
      .prepare('SELECT user_domain, user_id FROM conversation_members WHERE conv_domain = ? AND conv_id = ?')
      .bind(conv.domain, conv.id),
    db
      .prepare(
        'SELECT group_id, epoch, cipher_suite FROM mls_subconversations WHERE conv_domain = ? AND conv_id = ? AND subconv = ?',
      )
      .bind(conv.domain, conv.id, subconv ?? ''),
  ]);
  const row = meta!.results[0] as ConvMeta | undefined;
  if (row === undefined) return undefined;
  const subRow = sub!.results[0] as Pick<ConvMeta, 'group_id' | 'epoch' | 'cipher_suite'> | undefined;
  const group =
    subconv === undefined
      ? row
      : (subRow ?? { group_id: toBase64(subconversationGroupId(conv, subconv)), epoch: 0, cipher_suite: null });
  const [leaves, proposals, last] =
    group.group_id === null
      ? [[], [], []]
      : await db
          .batch([
            db
              .prepare(
                'SELECT leaf_index, user_domain, user, client, removal_pending FROM mls_group_clients WHERE group_id = ?',
              )
              .bind(group.group_id),
            db
              .prepare('SELECT ref, origin, effect, message FROM mls_proposals WHERE group_id = ?')
              .bind(group.group_id),
            db.prepare('SELECT last_commit FROM mls_group_infos WHERE group_id = ?').bind(group.group_id),
          ])
          .then(([l, p, c]) => [
            l!.results as LeafRow[],
            p!.results as ProposalRow[],
            c!.results as Array<{ last_commit: string | null }>,
          ]);
  const lastCommit = (last as Array<{ last_commit: string | null }>)[0]?.last_commit;
  return {
    conv,
    subconv,
    protocol: row.protocol,
    type: row.type,
    team: row.team,
    groupId: group.group_id,
    epoch: group.epoch,
    suite: group.cipher_suite,
    members: new Set(
      (members!.results as Array<{ user_domain: string; user_id: string }>).map((m) => `${m.user_domain}/${m.user_id}`),
    ),
    leaves: new Map(
      (leaves as LeafRow[]).map((l) => [
        l.leaf_index,
        {
          index: l.leaf_index,
          domain: l.user_domain,
          user: l.user,
          client: l.client,
          removalPending: l.removal_pending === 1,
        },
      ]),
    ),
    proposals: new Map((proposals as ProposalRow[]).map((p) => [p.ref, { ...p, effect: JSON.parse(p.effect) }])),
    lastCommit: lastCommit == null ? undefined : (JSON.parse(lastCommit) as LastCommit),
  };
}

/** The statements of a commit; the epoch moves only from the epoch the commit was made in. */
export function commitStatements(db: D1Database, w: CommitWrites): D1PreparedStatement[] {
  const statements = [
    w.subconv === undefined
      ? db
          .prepare(
            `UPDATE conversations SET epoch = epoch + 1, epoch_timestamp = ?, cipher_suite = ?
             WHERE domain = ? AND id = ? AND epoch = ?`,
          )
          .bind(w.now, w.suite, w.conv.domain, w.conv.id, w.epoch)
      : db
          .prepare(
            `INSERT INTO mls_subconversations (conv_domain, conv_id, subconv, group_id, epoch, epoch_timestamp, cipher_suite)
             VALUES (?, ?, ?, ?, 1, ?, ?)
             ON CONFLICT DO UPDATE SET epoch = epoch + 1, epoch_timestamp = excluded.epoch_timestamp,
               cipher_suite = excluded.cipher_suite WHERE epoch = ?`,
          )
          .bind(w.conv.domain, w.conv.id, w.subconv, w.groupId, w.now, w.suite, w.epoch),
    db.prepare('DELETE FROM mls_proposals WHERE group_id = ?').bind(w.groupId),
    db
      .prepare(
        `INSERT INTO mls_group_infos (group_id, group_info, last_commit) VALUES (?, ?, ?)
         ON CONFLICT (group_id) DO UPDATE SET group_info = excluded.group_info, last_commit = excluded.last_commit`,
      )
      .bind(w.groupId, w.groupInfo, JSON.stringify(w.lastCommit)),
  ];
  const removeLeaf = db.prepare('DELETE FROM mls_group_clients WHERE group_id = ? AND leaf_index = ?');
  for (const index of w.removedLeaves) statements.push(removeLeaf.bind(w.groupId, index));
  const addLeaf = db.prepare(
    'INSERT INTO mls_group_clients (group_id, leaf_index, user_domain, user, client) VALUES (?, ?, ?, ?, ?)',
  );
  for (const l of w.addedLeaves) statements.push(addLeaf.bind(w.groupId, l.index, l.domain, l.user, l.client));
  const join = db.prepare(
    `INSERT INTO conversation_members (conv_domain, conv_id, user_domain, user_id, role, joined_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  for (const j of w.joined) statements.push(join.bind(w.conv.domain, w.conv.id, j.domain, j.user, j.role, w.now));
  const leave = db.prepare(
    'DELETE FROM conversation_members WHERE conv_domain = ? AND conv_id = ? AND user_domain = ? AND user_id = ?',
  );
  for (const l of w.left) statements.push(leave.bind(w.conv.domain, w.conv.id, l.domain, l.user));
  return statements;
}

/** The statement storing a proposal of the current epoch. */
export function proposalStatement(
  db: D1Database,
  groupId: string,
  epoch: number,
  p: PendingProposal,
): D1PreparedStatement {
  return db
    .prepare(
      'INSERT INTO mls_proposals (group_id, epoch, ref, origin, effect, message) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    )
    .bind(groupId, epoch, p.ref, p.origin, JSON.stringify(p.effect), p.message);
}

/** The statement marking a leaf's client as on its way out (the backend proposed its removal). */
export function removalPendingStatement(db: D1Database, groupId: string, leafIndex: number): D1PreparedStatement {
  return db
    .prepare('UPDATE mls_group_clients SET removal_pending = 1 WHERE group_id = ? AND leaf_index = ?')
    .bind(groupId, leafIndex);
}

/**
 * The statements of a group's reset: its clients, group info and proposals go, and the
 * conversation (or subconversation) moves to the next generation's group id at epoch 0.
 */
export function resetStatements(
  db: D1Database,
  conv: QualifiedRef,
  subconv: string | undefined,
  from: string,
  to: string,
): D1PreparedStatement[] {
  const moved =
    subconv === undefined
      ? db
          .prepare(
            `UPDATE conversations SET group_id = ?, epoch = 0, epoch_timestamp = NULL, cipher_suite = NULL
             WHERE domain = ? AND id = ? AND group_id = ?`,
          )
          .bind(to, conv.domain, conv.id, from)
      : db
          .prepare(
            `INSERT INTO mls_subconversations (conv_domain, conv_id, subconv, group_id, epoch) VALUES (?, ?, ?, ?, 0)
             ON CONFLICT DO UPDATE SET group_id = excluded.group_id, epoch = 0, epoch_timestamp = NULL, cipher_suite = NULL`,
          )
          .bind(conv.domain, conv.id, subconv, to);
  return [
    db.prepare('DELETE FROM mls_group_clients WHERE group_id = ?').bind(from),
    db.prepare('DELETE FROM mls_group_infos WHERE group_id = ?').bind(from),
    db.prepare('DELETE FROM mls_proposals WHERE group_id = ?').bind(from),
    moved,
  ];
}

/** The subconversations a conversation has (created by a commit). */
export async function subconversationsOf(db: D1Database, conv: QualifiedRef): Promise<string[]> {
  const rows = await db
    .prepare('SELECT subconv FROM mls_subconversations WHERE conv_domain = ? AND conv_id = ?')
    .bind(conv.domain, conv.id)
    .all<{ subconv: string }>();
  return rows.results.map((r) => r.subconv);
}
