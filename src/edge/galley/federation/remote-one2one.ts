// The Proteus 1:1 of a local and a remote user who connect (wire's upsertOne2OneConversation): its
// id comes from both users and picks the backend that owns it. The owner keeps the conversation,
// with each user in it once their side of the connection wants them; the other backend keeps a
// copy with its user, so the 1:1 is listed and read there and messages go through the owner.
import type { Config } from '../../../shared/config/index.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { database, runBatch } from '../../db/client.js';
import { conversationStore, privateConversationRow } from '../conversations/conversation-store.js';
import { memberRow } from '../conversations/member-data.js';
import { one2OneConvId, PROTEUS_ONE2ONE_NAMESPACE } from '../conversations/one2one-id.js';
import { ROLE_ADMIN } from '../conversations/roles.js';
import { membershipChanged } from '../messaging/conversation-object.js';
import { dropCopyWithoutLocals } from './remote-copies.js';

/** Whose side of the connection changed, and whether that user now wants to be in the 1:1. */
export interface One2OneChange {
  actor: 'local' | 'remote';
  included: boolean;
}

/** Brings the 1:1 of `local` and `remote` in line with a change of their connection; its id. */
export async function upsertRemoteOne2One(
  env: Env,
  config: Config,
  local: QualifiedId,
  remote: QualifiedId,
  change: One2OneChange,
): Promise<QualifiedId> {
  const db = database(env.DB);
  const id = await one2OneConvId(PROTEUS_ONE2ONE_NAMESPACE, local, remote);
  const conv = await conversationStore.get(db, id);
  const owned = id.domain === local.domain;
  const who = change.actor === 'local' ? local : remote;
  if (!owned && change.actor === 'remote') return id; // the owner keeps the remote user's side
  if (change.included) {
    const members = owned ? [who] : [local, remote];
    const row = conv ?? privateConversationRow(id, null, owned ? 3 : 2);
    const present = new Set((conv === undefined ? [] : await conversationStore.members(db, id)).map((m) => m.userId));
    const joining = members.filter((u) => !present.has(u.id));
    if (joining.length === 0) return id;
    const both = owned && present.size + joining.length === 2;
    await runBatch(db, [
      ...(conv === undefined ? [conversationStore.insert(db, row).onConflictDoNothing()] : []),
      ...conversationStore.addMembers(
        db,
        joining.map((u) => memberRow(row, u, ROLE_ADMIN)),
      ),
      ...(both && row.type !== 2 ? [conversationStore.update(db, id, { type: 2 })] : []),
    ]);
  } else if (conv !== undefined) {
    await runBatch(db, conversationStore.removeMembers(db, id, [who]));
    if (!owned) await dropCopyWithoutLocals(db, id, local.domain);
  }
  if (conv !== undefined) await membershipChanged(env, id, change.included ? undefined : { config, targets: [who] });
  return id;
}
