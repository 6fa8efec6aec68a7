import { z } from 'zod';
import { registerEvent } from './registry.js';

/** `user.*` events (no `data` wrapper: fields sit next to `type`). */
const qualifiedId = z.object({ id: z.string(), domain: z.string() });

const userUpdateData = z.object({
  id: z.string(),
  name: z.string().optional(),
  text_status: z.string().optional(),
  accent_id: z.int().optional(),
  assets: z.array(z.unknown()).optional(),
  handle: z.string().optional(),
  locale: z.string().optional(),
  supported_protocols: z.array(z.string()).optional(),
  managed_by: z.string().optional(),
  team: z.string().optional(),
  email: z.string().optional(),
  sso_id: z.record(z.string(), z.string()).optional(),
  sso_id_deleted: z.boolean().optional(),
});
export type UserUpdateData = z.infer<typeof userUpdateData>;

const schemas = {
  'user.update': z.object({ type: z.literal('user.update'), user: userUpdateData }),
  'user.activate': z.object({ type: z.literal('user.activate'), user: z.record(z.string(), z.unknown()) }),
  'user.delete': z.object({ type: z.literal('user.delete'), id: z.string(), qualified_id: qualifiedId }),
  'user.properties-set': z.object({ type: z.literal('user.properties-set'), key: z.string(), value: z.unknown() }),
  'user.properties-delete': z.object({ type: z.literal('user.properties-delete'), key: z.string() }),
  'user.properties-clear': z.object({ type: z.literal('user.properties-clear') }),
  'user.session-refresh-suggested': z.object({ type: z.literal('user.session-refresh-suggested') }),
  'user.identity-remove': z.object({
    type: z.literal('user.identity-remove'),
    user: z.object({ id: z.string(), email: z.string().optional(), phone: z.string().optional() }),
  }),
  'user.push-remove': z.object({
    type: z.literal('user.push-remove'),
    token: z.object({ transport: z.string(), app: z.string(), token: z.string(), client: z.string() }),
  }),
} as const;
for (const [type, schema] of Object.entries(schemas)) registerEvent(type, schema);

type Payload<T extends keyof typeof schemas> = z.infer<(typeof schemas)[T]>;

export const userEvents = {
  update: (user: UserUpdateData): Payload<'user.update'> => ({ type: 'user.update', user }),
  activate: (user: Record<string, unknown>): Payload<'user.activate'> => ({ type: 'user.activate', user }),
  delete: (id: string, domain: string): Payload<'user.delete'> => ({
    type: 'user.delete',
    id,
    qualified_id: { id, domain },
  }),
  propertySet: (key: string, value: unknown): Payload<'user.properties-set'> => ({
    type: 'user.properties-set',
    key,
    value,
  }),
  propertyDelete: (key: string): Payload<'user.properties-delete'> => ({ type: 'user.properties-delete', key }),
  propertiesClear: (): Payload<'user.properties-clear'> => ({ type: 'user.properties-clear' }),
  sessionRefreshSuggested: (): Payload<'user.session-refresh-suggested'> => ({
    type: 'user.session-refresh-suggested',
  }),
  emailRemoved: (id: string, email: string): Payload<'user.identity-remove'> => ({
    type: 'user.identity-remove',
    user: { id, email },
  }),
};
