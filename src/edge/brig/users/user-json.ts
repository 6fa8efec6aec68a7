import { z } from '@hono/zod-openapi';
import { locale, qualifiedUserId, uuid } from '../../api/schemas/common.js';
import { legalholdStatus, type LegalholdStatus } from '../../api/schemas/legalhold-status.js';
import type { users } from '../../../shared/db/schema.js';
import { userAsset } from '../../api/schemas/user-asset.js';

export type UserRow = typeof users.$inferSelect;

export const baseProtocol = z.enum(['proteus', 'mls']).openapi('BaseProtocol');
const name = z.string().min(1).max(128);
const textStatus = z.string().min(1).max(256);

/** Fields both views share. */
const profileFields = {
  id: uuid,
  qualified_id: qualifiedUserId,
  name,
  text_status: textStatus.optional(),
  accent_id: z.int(),
  assets: z.array(userAsset),
  picture: z.array(z.unknown()),
  handle: z.string().optional(),
  team: uuid.optional(),
  email: z.string().optional(),
  supported_protocols: z.array(baseProtocol),
  expires_at: z.string().optional(),
  deleted: z.boolean().optional(),
  /** A bot's service. */
  service: z.object({ id: uuid, provider: uuid }).openapi('ServiceRef').optional(),
};

/** The self view (`GET /self`): private fields included, `managed_by` reported here only. */
export const selfUser = z
  .object({
    ...profileFields,
    locale,
    status: z.enum(['active', 'suspended', 'deleted', 'ephemeral', 'pending-invitation']),
    email_unvalidated: z.string().optional(),
    managed_by: z.enum(['wire', 'scim']),
    sso_id: z.record(z.string(), z.string()).optional(),
  })
  .openapi('User');

/** What others see (`GET /users/{domain}/{uid}`). */
export const userProfile = z.object({ ...profileFields, legalhold_status: legalholdStatus }).openapi('UserProfile');

export type SelfUser = z.infer<typeof selfUser>;
export type UserProfile = z.infer<typeof userProfile>;

const opt = <K extends string, V>(key: K, value: V | null | undefined) =>
  (value === null || value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

const expiry = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());

export function selfJson(u: UserRow, domain: string): SelfUser {
  return {
    id: u.id,
    qualified_id: { id: u.id, domain },
    name: u.name,
    ...opt('text_status', u.textStatus),
    accent_id: u.accentId,
    assets: u.assets,
    picture: [],
    locale: u.locale,
    status: u.status,
    ...opt('email', u.email),
    ...opt('email_unvalidated', u.emailUnvalidated),
    ...opt('handle', u.handle),
    ...opt('team', u.team),
    managed_by: u.managedBy,
    supported_protocols: u.supportedProtocols,
    ...opt('expires_at', expiry(u.expiresAt)),
    ...opt('sso_id', u.ssoId as Record<string, string> | null),
    ...(u.status === 'deleted' ? { deleted: true } : {}),
  };
}

/** The public profile; a deleted user keeps only its id, a placeholder name and `deleted`. */
export function profileJson(
  u: UserRow,
  domain: string,
  o: { showEmail?: boolean; legalhold?: LegalholdStatus | undefined } = {},
): UserProfile {
  const legalhold_status = o.legalhold ?? 'no_consent';
  const base = { id: u.id, qualified_id: { id: u.id, domain }, picture: [], legalhold_status };
  if (u.status === 'deleted')
    return { ...base, name: 'default', accent_id: 0, assets: [], supported_protocols: ['proteus'], deleted: true };
  return {
    ...base,
    name: u.name,
    ...opt('text_status', u.textStatus),
    accent_id: u.accentId,
    assets: u.assets,
    ...opt('handle', u.handle),
    ...opt('team', u.team),
    ...opt('email', o.showEmail ? u.email : null),
    supported_protocols: u.supportedProtocols,
    ...opt('expires_at', expiry(u.expiresAt)),
    ...(u.serviceId === null || u.serviceProvider === null
      ? {}
      : { service: { id: u.serviceId, provider: u.serviceProvider } }),
  };
}
