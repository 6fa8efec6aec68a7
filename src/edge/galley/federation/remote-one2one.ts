// The Proteus 1:1 of a local and a remote user who connect (wire's upsertOne2OneConversation): its
// id comes from both users and picks the backend that owns it. The owner keeps the conversation,
// with each user in it once their side of the connection wants them; the other backend keeps a
// copy with its user, so the 1:1 is listed and read there and messages go through the owner.
import type { QualifiedId } from '../../api/schemas/common.js';
import { type Change, joinChanges, noChange } from '../../effects/commit-change.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { privateConversationRow } from '../conversations/conversation-store.js';
import { memberRow } from '../conversations/member-data.js';
import { one2OneConvId, PROTEUS_ONE2ONE_NAMESPACE } from '../conversations/one2one-id.js';
import { ROLE_ADMIN } from '../conversations/roles.js';
import { membershipChangedEffect } from '../conversations/conversation-object.js';
import { leaveCopy } from './remote-copies.js';

/** Whose side of the connection changed, and whether that user now wants to be in the 1:1. */
export interface One2OneChange {
  actor: 'local' | 'remote';
  included: boolean;
}

/**
 * Brings the 1:1 of `local` and `remote` in line with a change of their connection: its id, and
 * the change, for the caller to commit with the connection's.
 */
export async function upsertRemoteOne2One(
  env: Env,
  local: QualifiedId,
  remote: QualifiedId,
  change: One2OneChange,
): Promise<{ id: QualifiedId; change: Change }> {
  const id = await one2OneConvId(PROTEUS_ONE2ONE_NAMESPACE, local, remote);
  const conv = await conversationBook.get(env, id);
  const owned = id.domain === local.domain;
  const who = change.actor === 'local' ? local : remote;
  if (!owned && change.actor === 'remote') return { id, change: noChange() }; // the owner keeps the remote user's side
  let written: Change;
  if (change.included) {
    const members = owned ? [who] : [local, remote];
    const row = conv ?? privateConversationRow(id, null, owned ? 3 : 2);
    const present = new Set((conv === undefined ? [] : await conversationBook.members(env, id)).map((m) => m.userId));
    const joining = members.filter((u) => !present.has(u.id)).map((u) => memberRow(row, u, ROLE_ADMIN));
    if (joining.length === 0) return { id, change: noChange() };
    const both = owned && present.size + joining.length === 2;
    written = joinChanges(
      conv === undefined
        ? conversationBook.create(env, row, joining, local.domain)
        : conversationBook.addMembers(env, joining),
      both && row.type !== 2 ? conversationBook.update(env, id, { type: 2 }) : noChange(),
    );
  } else if (conv !== undefined) {
    written = owned ? conversationBook.removeMembers(env, id, [who]) : await leaveCopy(env, id, [who], local.domain);
  } else return { id, change: noChange() };
  const effects = conv === undefined ? [] : [membershipChangedEffect(id, change.included ? undefined : [who])];
  return { id, change: joinChanges(written, { statements: [], effects }) };
}
