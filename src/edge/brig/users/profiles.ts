import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { federationErrors } from '../../api/errors/federation.js';
import { json, jsonBody, qualifiedUserId, type QualifiedId } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { roleInTeam } from '../../galley/face.js';
import { emailVisibleTo, type Viewer } from './email-visibility.js';
import { baseProtocol, profileJson, userProfile, type UserRow } from './user-json.js';
import { userStore, visibleAccount } from './user-store.js';

const localDomain = (c: Context<AppEnv>) => c.get('config').brig.optSettings.setFederationDomain;

/** Remote users are reached through federation, which this backend does not do yet. */
function requireLocal(c: Context<AppEnv>, domain: string): void {
  if (domain !== localDomain(c)) throw new ApiError(federationErrors.federationNotEnabled);
}

/** The caller's team membership, which decides which emails they see. */
async function viewerOf(c: Context<AppEnv>): Promise<Viewer | undefined> {
  const db = database(c.env.DB);
  const me = await userStore.byId(db, self(c).user);
  if (!visibleAccount(me) || me.team === null) return undefined;
  const role = await roleInTeam(db, me.team, me.id);
  return role === undefined ? undefined : { team: me.team, role };
}

async function profilesOf(c: Context<AppEnv>, rows: UserRow[]) {
  const setting = c.get('config').brig.optSettings.setEmailVisibility;
  const viewer = setting === 'visible_if_on_team' ? undefined : await viewerOf(c);
  return rows
    .filter(visibleAccount)
    .map((u) => profileJson(u, localDomain(c), { showEmail: emailVisibleTo(setting, viewer, u) }));
}

const userParams = z.object({ domain: z.string(), uid: z.uuid() });

export const getUser = endpoint(
  {
    name: 'get-user-qualified',
    method: 'get',
    path: '/users/{domain}/{uid}',
    request: { params: userParams },
    errors: [brigErrors.userNotFound, federationErrors.federationNotEnabled],
    responses: { 200: { description: 'User found', ...json(userProfile) } },
  },
  async (c) => {
    const { domain, uid } = c.req.valid('param');
    requireLocal(c, domain);
    const user = await userStore.byId(database(c.env.DB), uid);
    const [profile] = visibleAccount(user) ? await profilesOf(c, [user]) : [];
    if (profile === undefined) throw new ApiError(brigErrors.userNotFound);
    return c.json(profile, 200);
  },
);

export const getSupportedProtocols = endpoint(
  {
    name: 'get-supported-protocols',
    method: 'get',
    path: '/users/{domain}/{uid}/supported-protocols',
    from: 5,
    request: { params: userParams },
    errors: [brigErrors.userNotFound, federationErrors.federationNotEnabled],
    responses: { 200: { description: 'Protocols the user supports', ...json(z.array(baseProtocol)) } },
  },
  async (c) => {
    const { domain, uid } = c.req.valid('param');
    requireLocal(c, domain);
    const user = await userStore.byId(database(c.env.DB), uid);
    if (!visibleAccount(user) || user.status === 'deleted') throw new ApiError(brigErrors.userNotFound);
    return c.json(user.supportedProtocols, 200);
  },
);

const listUsersQuery = z
  .object({
    qualified_ids: z.array(qualifiedUserId).min(1).max(4).optional(),
    qualified_handles: z
      .array(z.object({ handle: z.string(), domain: z.string() }))
      .min(1)
      .max(4)
      .optional(),
  })
  .refine((q) => (q.qualified_ids === undefined) !== (q.qualified_handles === undefined), {
    message: 'exactly one of qualified_ids and qualified_handles is required',
  })
  .openapi('ListUsersQuery');

/** Local users named by id or handle, and the qualified ids that could not be listed. */
async function listUsers(c: Context<AppEnv>, q: z.infer<typeof listUsersQuery>) {
  const db = database(c.env.DB);
  const domain = localDomain(c);
  const failed: QualifiedId[] = [];
  let rows: UserRow[] = [];
  if (q.qualified_ids !== undefined) {
    const local = q.qualified_ids.filter((u) => u.domain === domain);
    failed.push(...q.qualified_ids.filter((u) => u.domain !== domain));
    rows = await userStore.byIds(
      db,
      local.map((u) => u.id),
    );
  } else {
    for (const h of q.qualified_handles ?? []) {
      const row = h.domain === domain ? await userStore.byHandle(db, h.handle) : undefined;
      if (row !== undefined) rows.push(row);
    }
  }
  return { found: await profilesOf(c, rows), failed };
}

export const listUsersV3 = endpoint(
  {
    name: 'list-users-by-ids-or-handles@v3',
    method: 'post',
    path: '/list-users',
    until: 4,
    request: jsonBody(listUsersQuery),
    responses: { 200: { description: 'Users found', ...json(z.array(userProfile)) } },
  },
  async (c) => c.json((await listUsers(c, c.req.valid('json'))).found, 200),
);

export const listUsersV4 = endpoint(
  {
    name: 'list-users-by-ids-or-handles',
    method: 'post',
    path: '/list-users',
    from: 4,
    request: jsonBody(listUsersQuery),
    responses: {
      200: {
        description: 'Users found, and those that could not be listed',
        ...json(z.object({ found: z.array(userProfile), failed: z.array(qualifiedUserId).optional() })),
      },
    },
  },
  async (c) => {
    const { found, failed } = await listUsers(c, c.req.valid('json'));
    return c.json({ found, ...(failed.length > 0 ? { failed } : {}) }, 200);
  },
);
