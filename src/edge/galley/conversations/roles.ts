/** What a conversation role may do; the built-in roles are `wire_admin` (everything) and `wire_member`. */
const CONVERSATION_ACTIONS = [
  'add_conversation_member',
  'remove_conversation_member',
  'modify_conversation_name',
  'modify_conversation_message_timer',
  'modify_conversation_receipt_mode',
  'modify_conversation_access',
  'modify_other_conversation_member',
  'leave_conversation',
  'delete_conversation',
  'modify_add_permission',
] as const;
export type ConversationAction = (typeof CONVERSATION_ACTIONS)[number];

/** How `action-denied` names an action: as the action, except wire's plural for modify_add_permission. */
export const deniedActionName = (action: ConversationAction) =>
  action === 'modify_add_permission' ? 'modify_add_permissions' : action;

export const ROLE_ADMIN = 'wire_admin';
export const ROLE_MEMBER = 'wire_member';

const builtIn: Record<string, readonly ConversationAction[]> = {
  [ROLE_ADMIN]: CONVERSATION_ACTIONS,
  [ROLE_MEMBER]: ['leave_conversation'],
};

/** The built-in roles with their actions, as `GET /conversations/{cnv}/roles` lists them. */
export const builtInRoles = () =>
  Object.entries(builtIn).map(([conversation_role, actions]) => ({ conversation_role, actions: [...actions] }));

export function roleAllows(role: string, action: ConversationAction): boolean {
  return builtIn[role]?.includes(action) ?? false;
}
