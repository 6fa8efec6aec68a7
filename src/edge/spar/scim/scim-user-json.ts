// A user as SCIM shows them: wire's account, team role and rich info, with SCIM's record.
import { toHex } from '../../../shared/hex.js';
import { isValidEmail, type UserRow } from '../../brig/face.js';
import type { RichField, TeamRole } from '../../../shared/db/schema.js';
import { CORE_USER_SCHEMA, WIRE_EXTENSION, WIRE_PROFILE } from './scim-user-input.js';
import type { ScimUserRow } from './scim-user-store.js';

export interface ScimUserView {
  user: UserRow;
  /** SCIM's record (users the team had before SCIM have none). */
  record: ScimUserRow | undefined;
  role: TeamRole | undefined;
  richInfo: readonly RichField[];
  scimBaseUri: string;
}

/** Active accounts are `active`; suspended ones, pending invitations and deleted ones are not. */
const isActive = (u: UserRow) => u.status === 'active' || u.status === 'ephemeral';

/** The resource without `meta`: also what tells whether a replacement changes anything. */
export function scimUserBody(v: ScimUserView): Record<string, unknown> {
  const { user, record } = v;
  const externalId = record?.externalId ?? user.email ?? undefined;
  const email =
    user.emailUnvalidated ??
    user.email ??
    (externalId !== undefined && isValidEmail(externalId) ? externalId : undefined);
  return {
    schemas: [CORE_USER_SCHEMA, WIRE_PROFILE, WIRE_EXTENSION],
    id: user.id,
    ...(user.handle === null ? {} : { userName: user.handle }),
    ...(externalId === undefined ? {} : { externalId }),
    displayName: user.name,
    preferredLanguage: user.locale.split('-')[0]!,
    active: isActive(user),
    ...(email === undefined ? {} : { emails: [{ value: email }] }),
    ...(v.role === undefined ? {} : { roles: [v.role] }),
    [WIRE_PROFILE]: { richInfo: { version: 0, fields: v.richInfo } },
    [WIRE_EXTENSION]: Object.fromEntries(v.richInfo.map((f) => [f.type, f.value])),
  };
}

export async function scimUserJson(v: ScimUserView): Promise<Record<string, unknown>> {
  const body = scimUserBody(v);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(body)));
  const created = new Date(v.record?.createdAt ?? v.user.createdAt).toISOString();
  return {
    ...body,
    meta: {
      resourceType: 'User',
      created,
      lastModified: v.record === undefined ? created : new Date(v.record.updatedAt).toISOString(),
      version: `W/"${toHex(new Uint8Array(digest))}"`,
      location: `${v.scimBaseUri}/Users/${v.user.id}`,
    },
  };
}
