import { z } from 'zod';
import { registerEvent } from './registry.js';

const qid = z.object({ id: z.string(), domain: z.string() });
const envelope = (type: string, data: z.ZodType) =>
  z.object({
    type: z.literal(type),
    conversation: z.string(),
    qualified_conversation: qid,
    from: z.string(),
    qualified_from: qid,
    time: z.string(),
    via: z.enum(['user', 'scim']),
    team: z.string().optional(),
    subconv: z.string().optional(),
    data,
  });

const anyObject = z.record(z.string(), z.unknown());
const dataSchemas: Record<string, z.ZodType> = {
  'conversation.create': anyObject,
  'conversation.delete': z.null(),
  'conversation.member-join': z.object({
    users: z.array(z.object({ qualified_id: qid, id: z.string(), conversation_role: z.string() })),
    user_ids: z.array(z.string()),
    add_type: z.enum(['internal_add', 'external_add']),
  }),
  'conversation.member-leave': z.object({
    qualified_user_ids: z.array(qid),
    user_ids: z.array(z.string()),
    reason: z.enum(['left', 'removed', 'user-deleted']),
  }),
  'conversation.member-update': anyObject,
  'conversation.rename': z.object({ name: z.string() }),
  'conversation.access-update': z.object({
    access: z.array(z.string()),
    access_role: z.string(),
    access_role_v2: z.array(z.string()),
  }),
  'conversation.message-timer-update': z.object({ message_timer: z.int().nullable() }),
  'conversation.receipt-mode-update': z.object({ receipt_mode: z.int() }),
  'conversation.add-permission-update': z.object({ add_permission: z.enum(['admins', 'everyone']) }),
  'conversation.code-update': z.object({
    key: z.string(),
    code: z.string(),
    uri: z.string(),
    has_password: z.boolean(),
  }),
  'conversation.code-delete': z.null(),
  'conversation.typing': z.object({ status: z.enum(['started', 'stopped']) }),
  // base64 of an MLSMessage: a commit, proposal or application message; a Welcome
  'conversation.mls-message-add': z.string(),
  'conversation.mls-welcome': z.string(),
  'conversation.protocol-update': z.object({ protocol: z.enum(['proteus', 'mixed', 'mls']) }),
  'conversation.mls-reset': z.object({ group_id: z.string(), new_group_id: z.string().optional() }),
  'conversation.connect-request': anyObject,
  'conversation.otr-message-add': z.object({
    sender: z.string(),
    recipient: z.string(),
    text: z.string(),
    data: z.string(),
  }),
};
for (const [type, data] of Object.entries(dataSchemas)) registerEvent(type, envelope(type, data));

export type ConversationEventType = keyof typeof dataSchemas;

// Built in shared/: the Conversation object's message fan-out builds them too.
export { conversationEvent, eventTime } from '../../shared/events/conversation-event.js';
