// What a member may do with a subconversation of a conversation owned here (read it, reset it,
// leave it), for a local caller or a member of another backend acting through federation.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { utcTime } from '../conversations/conversation-json.js';
import { conversationObject, objectDelivery } from '../conversations/conversation-object.js';
import { queueRemovals } from '../federation/mls-deliveries.js';
import { checkSubconversation } from './member-group.js';
import { refusalError } from './mls-failure.js';

const qid = z.object({ id: z.string(), domain: z.string() });
/** wire's PublicSubConversation. */
export const publicSubconversationSchema = z
  .object({
    parent_qualified_id: qid,
    subconv_id: z.string(),
    group_id: z.string(),
    epoch: z.int(),
    epoch_timestamp: z.string().optional(),
    cipher_suite: z.int().optional(),
    members: z.array(z.object({ domain: z.string(), user_id: z.string(), client_id: z.string() })),
  })
  .openapi('PublicSubConversation');

/** The subconversation as its conversation's object holds it, or as it is before its first commit. */
export async function publicSubconversation(
  c: Context<AppEnv>,
  conv: QualifiedId,
  subconv: string,
  who: QualifiedId,
): Promise<z.input<typeof publicSubconversationSchema>> {
  await checkSubconversation(c, conv, subconv, who);
  const group = await conversationObject(c.env, conv).group(conv, subconv);
  if (group?.groupId == null) throw new Error(`the object of ${conv.domain}/${conv.id} has no group ${subconv}`);
  const { groupId, epoch, epochTimestamp, suite } = group;
  return {
    parent_qualified_id: conv,
    subconv_id: subconv,
    group_id: groupId,
    epoch,
    ...(epochTimestamp !== null && suite !== null
      ? { epoch_timestamp: utcTime(epochTimestamp), cipher_suite: suite }
      : {}),
    members: group.clients.map((m) => ({ domain: m.domain, user_id: m.user, client_id: m.client })),
  };
}

/** Resets a subconversation, given its current group id and epoch (409 `mls-stale-message` for another epoch). */
export async function resetSubconversation(
  c: Context<AppEnv>,
  conv: QualifiedId,
  subconv: string,
  who: QualifiedId,
  current: { groupId: string; epoch: number },
): Promise<void> {
  await checkSubconversation(c, conv, subconv, who);
  const result = await conversationObject(c.env, conv).resetGroup({
    conv,
    subconv,
    ...current,
    by: { user: who.id, domain: who.domain },
    ...objectDelivery(c.get('config')),
  });
  if ('refusal' in result) throw refusalError(result.refusal, result.message);
}

/** A member's client leaves a subconversation (400 `mls-protocol-error` when it is not in it). */
export async function leaveSubconversationAs(
  c: Context<AppEnv>,
  conv: QualifiedId,
  subconv: string,
  who: QualifiedId & { client: string },
): Promise<void> {
  await checkSubconversation(c, conv, subconv, who);
  const result = await conversationObject(c.env, conv).leaveSubconversation({
    conv,
    subconv,
    targets: [{ user: who.id, domain: who.domain, client: who.client }],
    ...objectDelivery(c.get('config')),
  });
  if ('refusal' in result) throw refusalError(result.refusal, result.message);
  await queueRemovals(c.env, c.get('config'), conv, [{ subconv, time: result.time, remote: result.remote ?? [] }]);
}
