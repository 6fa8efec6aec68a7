import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody, locale } from '../../api/schemas/common.js';
import { self, selfQualified } from '../../api/self.js';
import { type BatchStatement, database } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { publishEffect } from '../../events/publish.js';
import { userEvents, type UserUpdateData } from '../../events/user-events.js';
import { baseProtocol, selfJson, selfUser, type UserRow } from './user-json.js';
import { userAsset } from '../../api/schemas/user-asset.js';
import { userStore } from './user-store.js';
import { contactsOf } from './contacts.js';
import { guardManagedField, managedByView } from './managed-fields.js';
import { deps } from '../../api/deps.js';

/** The caller's record; a token of a vanished user is as good as none. */
export async function selfRow(c: Context<AppEnv>): Promise<UserRow> {
  const row = await userStore.byId(database(c.env.DB), self(c).user);
  if (row === undefined || row.status === 'deleted') throw new ApiError(brigErrors.userNotFound);
  return row;
}

/**
 * `user.update` to the user (other sessions) and, when `toContacts`, to their connections, as one
 * change with the `writes` that make the update.
 */
export async function announceUpdate(
  c: Context<AppEnv>,
  data: UserUpdateData,
  toContacts: boolean,
  writes: BatchStatement[] = [],
): Promise<void> {
  const me = self(c);
  const contacts = toContacts ? await contactsOf(c.env, selfQualified(c)) : [];
  const recipients = [me.user, ...contacts.map((u) => u.id)].map((user) => ({ user }));
  await commitChange(c.env, c.get('config'), {
    statements: writes,
    effects: [publishEffect(recipients, userEvents.update(data), { origin: me })],
  });
}

export const getSelf = endpoint(
  {
    name: 'get-self',
    method: 'get',
    path: '/self',
    errors: [brigErrors.userNotFound],
    responses: { 200: { description: 'The caller’s profile', ...json(selfUser) } },
  },
  async (c) => {
    const user = await selfRow(c);
    const config = c.get('config');
    const managedBy = await managedByView(database(c.env.DB), config, user);
    return c.json({ ...selfJson(user, deps(c).domain), managed_by: managedBy }, 200);
  },
);

export const putSelf = endpoint(
  {
    name: 'put-self',
    method: 'put',
    path: '/self',
    request: jsonBody(
      z
        .object({
          name: z.string().min(1).max(128).optional(),
          text_status: z.string().min(1).max(256).optional(),
          accent_id: z.int().optional(),
          assets: z.array(userAsset).optional(),
          picture: z.array(z.unknown()).optional(),
        })
        .openapi('UserUpdate'),
    ),
    errors: [brigErrors.managedByScim],
    responses: { 200: { description: 'Profile updated' } },
  },
  async (c) => {
    const body = c.req.valid('json');
    const user = await selfRow(c);
    if (body.name !== undefined && body.name !== user.name)
      await guardManagedField(database(c.env.DB), c.get('config'), user, 'name');
    const patch = {
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.text_status === undefined ? {} : { textStatus: body.text_status }),
      ...(body.accent_id === undefined ? {} : { accentId: body.accent_id }),
      ...(body.assets === undefined ? {} : { assets: body.assets }),
    };
    // An update naming no stored field (`{}`, only the legacy `picture`) changes nothing, yet succeeds.
    const writes = Object.keys(patch).length > 0 ? [userStore.update(database(c.env.DB), user.id, patch)] : [];
    const { picture: _legacy, ...changed } = body;
    await announceUpdate(c, { id: user.id, ...changed }, true, writes);
    return c.body(null, 200);
  },
);

export const putLocale = endpoint(
  {
    name: 'put-locale',
    method: 'put',
    path: '/self/locale',
    request: jsonBody(z.object({ locale }).openapi('LocaleUpdate')),
    errors: [brigErrors.managedByScim],
    responses: { 200: { description: 'Locale changed' } },
  },
  async (c) => {
    const { locale: next } = c.req.valid('json');
    const user = await selfRow(c);
    if (next !== user.locale) await guardManagedField(database(c.env.DB), c.get('config'), user, 'locale');
    const write = userStore.update(database(c.env.DB), user.id, { locale: next });
    await announceUpdate(c, { id: user.id, locale: next }, false, [write]);
    return c.body(null, 200);
  },
);

export const putSupportedProtocols = endpoint(
  {
    name: 'put-supported-protocols',
    method: 'put',
    path: '/self/supported-protocols',
    request: jsonBody(z.object({ supported_protocols: z.array(baseProtocol) }).openapi('SupportedProtocolUpdate')),
    errors: [brigErrors.mlsCannotBeRemoved],
    responses: { 200: { description: 'Supported protocols changed' } },
  },
  async (c) => {
    const next = [...new Set(c.req.valid('json').supported_protocols)];
    const user = await selfRow(c);
    if (user.supportedProtocols.includes('mls') && !next.includes('mls'))
      throw new ApiError(brigErrors.mlsCannotBeRemoved);
    const write = userStore.update(database(c.env.DB), user.id, { supportedProtocols: next });
    await announceUpdate(c, { id: user.id, supported_protocols: next }, true, [write]);
    return c.body(null, 200);
  },
);
