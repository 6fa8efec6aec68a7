import type { GroupLeaf, ProposalEffect } from '../../../shared/mls/delivery.js';
import type { QualifiedRef } from '../../../shared/proteus/types.js';

/** A proposal of the current epoch that the next commit must reference. */
export interface PendingProposal {
  ref: string;
  origin: 'backend' | 'client';
  effect: ProposalEffect;
  message: string;
}

/** A conversation's MLS group as D1 holds it. */
export interface GroupRow {
  conv: QualifiedRef;
  protocol: string;
  type: number;
  team: string | null;
  groupId: string | null;
  epoch: number;
  suite: number | null;
  /** Members of the conversation (users), as `domain/user`. */
  members: Set<string>;
  leaves: Map<number, GroupLeaf & { removalPending: boolean }>;
  proposals: Map<string, PendingProposal>;
}

type ConvMeta = {
  protocol: string;
  type: number;
  team: string | null;
  group_id: string | null;
  epoch: number;
  cipher_suite: number | null;
};

/** Reads a conversation's group: its row, members, clients by leaf and pending proposals, in one batch. */
export async function readGroup(db: D1Database, conv: QualifiedRef): Promise<GroupRow | undefined> {
  const [meta, members, leaves] = await db.batch([
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
        `SELECT g.leaf_index, g.user_domain, g.user, g.client, g.removal_pending FROM mls_group_clients g
         JOIN conversations c ON c.group_id = g.group_id WHERE c.domain = ? AND c.id = ?`,
      )
      .bind(conv.domain, conv.id),
  ]);
  const row = meta!.results[0] as ConvMeta | undefined;
  if (row === undefined) return undefined;
  const proposals =
    row.group_id === null
      ? []
      : ((
          await db
            .prepare('SELECT ref, origin, effect, message FROM mls_proposals WHERE group_id = ?')
            .bind(row.group_id)
            .all()
        ).results as Array<{ ref: string; origin: 'backend' | 'client'; effect: string; message: string }>);
  return {
    conv,
    protocol: row.protocol,
    type: row.type,
    team: row.team,
    groupId: row.group_id,
    epoch: row.epoch,
    suite: row.cipher_suite,
    members: new Set(
      (members!.results as Array<{ user_domain: string; user_id: string }>).map((m) => `${m.user_domain}/${m.user_id}`),
    ),
    leaves: new Map(
      (
        leaves!.results as Array<{
          leaf_index: number;
          user_domain: string;
          user: string;
          client: string;
          removal_pending: number;
        }>
      ).map((l) => [
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
    proposals: new Map(proposals.map((p) => [p.ref, { ...p, effect: JSON.parse(p.effect) }])),
  };
}

/** What a commit changes, written in one batch (all or nothing). */
export interface CommitWrites {
  conv: QualifiedRef;
  groupId: string;
  epoch: number;
  suite: number;
  now: number;
  removedLeaves: number[];
  addedLeaves: GroupLeaf[];
  groupInfo: string;
  joined: Array<{ user: string; domain: string; role: string }>;
  left: Array<{ user: string; domain: string }>;
}

/** The statements of a commit; the epoch moves only from the epoch the commit was made in. */
export function commitStatements(db: D1Database, w: CommitWrites): D1PreparedStatement[] {
  const statements = [
    db
      .prepare(
        `UPDATE conversations SET epoch = epoch + 1, epoch_timestamp = ?, cipher_suite = ?
         WHERE domain = ? AND id = ? AND epoch = ?`,
      )
      .bind(w.now, w.suite, w.conv.domain, w.conv.id, w.epoch),
    db.prepare('DELETE FROM mls_proposals WHERE group_id = ?').bind(w.groupId),
    db
      .prepare(
        'INSERT INTO mls_group_infos (group_id, group_info) VALUES (?, ?) ON CONFLICT (group_id) DO UPDATE SET group_info = excluded.group_info',
      )
      .bind(w.groupId, w.groupInfo),
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
