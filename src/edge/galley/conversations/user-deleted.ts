import type { Config } from '../../../shared/config/index.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { runBatch, type Db } from '../../db/client.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { publish } from '../../events/publish.js';
import { membershipChanged } from '../messaging/conversation-object.js';
import { conversationStore } from './conversation-store.js';

/**
 * A deleted user leaves every conversation; the remaining members get `member-leave` (reason
 * `user-deleted`), and so do `alsoTell` (a team's admins, when a team member is deleted).
 */
export async function leaveAllConversations(
  env: Env,
  config: Config,
  db: Db,
  user: QualifiedId,
  alsoTell: readonly string[] = [],
): Promise<void> {
  const convs: QualifiedId[] = [];
  for (let after: QualifiedId | undefined; ; ) {
    const page = await conversationStore.idsOf(db, user, 500, after);
    convs.push(...page);
    if (page.length < 500) break;
    after = page.at(-1);
  }
  for (const id of convs) {
    const conv = await conversationStore.get(db, id);
    if (conv === undefined) continue;
    const members = await conversationStore.members(db, id);
    await runBatch(db, conversationStore.removeMembers(db, id, [user]));
    await membershipChanged(env, id, { config, targets: [user] });
    const remaining = members.filter(
      (m) => !(m.userId === user.id && m.userDomain === user.domain) && m.userDomain === user.domain,
    );
    const recipients = new Set([...remaining.map((m) => m.userId), ...alsoTell]);
    recipients.delete(user.id);
    if (recipients.size === 0 || conv.type === 1) continue;
    const data = { qualified_user_ids: [user], user_ids: [user.id], reason: 'user-deleted' };
    const event = conversationEvent('conversation.member-leave', conv, user, data, { team: conv.team });
    await publish(
      env,
      config,
      [...recipients].map((u) => ({ user: u })),
      event,
    );
  }
}
