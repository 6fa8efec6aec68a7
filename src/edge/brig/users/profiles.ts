import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { commonErrors } from '../../api/errors/common.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { json, jsonBody, qualifiedUserId, type QualifiedId } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { groupBy } from '../../../shared/group-by.js';
import { replicaOf } from '../../db/client.js';
import { unlessUnreachable } from '../../federation/client.js';
import { legalholdStatuses, roleInTeam } from '../../galley/face.js';
import { emailVisibleTo, type Viewer } from './email-visibility.js';
import { remoteProfiles, remoteUserByHandle } from './remote-users.js';
import { baseProtocol, profileJson, userProfile, type UserProfile, type UserRow } from './user-json.js';
import { userStore, visibleAccount } from './user-store.js';
import { deps } from '../../api/deps.js';
import { userByHandle } from './user-names.js';

/** A user's profile: this backend's, or the one the user's own backend gives. */
async function profileOf(c: Context<AppEnv>, domain: string, uid: string): Promise<UserProfile | undefined> {
  if (domain !== deps(c).domain) return (await remoteProfiles(c.get('config'), domain, [uid]))[0];
  const user = await userStore.byId(replicaOf(c.env.DB), uid);
  return visibleAccount(user) ? (await profilesOf(c, [user]))[0] : undefined;
}

/** The caller's team membership, which decides which emails they see. */
async function viewerOf(c: Context<AppEnv>): Promise<Viewer | undefined> {
  const db = replicaOf(c.env.DB);
  const me = await userStore.byId(db, self(c).user);
  if (!visibleAccount(me) || me.team === null) return undefined;
  const role = await roleInTeam(db, me.team, me.id);
  return role === undefined ? undefined : { team: me.team, role };
}

async function profilesOf(c: Context<AppEnv>, rows: UserRow[]) {
  const setting = c.get('config').brig.optSettings.setEmailVisibility;
  const viewer = setting === 'visible_if_on_team' ? undefined : await viewerOf(c);
  const visible = rows.filter(visibleAccount);
  const legalhold = await legalholdStatuses(
    replicaOf(c.env.DB),
    visible.map((u) => u.id),
  );
  return visible.map((u) =>
    profileJson(u, deps(c).domain, {
      showEmail: emailVisibleTo(setting, viewer, u),
      legalhold: legalhold.get(u.id),
    }),
  );
}

const userParams = z.object({ domain: z.string(), uid: z.uuid() });

export const getUser = endpoint(
  {
    name: 'get-user-qualified',
    method: 'get',
    path: '/users/{domain}/{uid}',
    request: { params: userParams },
    errors: [brigErrors.userNotFound, ...FEDERATED_CALL_ERRORS],
    responses: { 200: { description: 'User found', ...json(userProfile) } },
  },
  async (c) => {
    const { domain, uid } = c.req.valid('param');
    const profile = await profileOf(c, domain, uid);
    if (profile === undefined) throw new ApiError(brigErrors.userNotFound);
    return c.json(profile, 200);
  },
);

export const getUserUnqualified = endpoint(
  {
    name: 'get-user-unqualified',
    method: 'get',
    path: '/users/{uid}',
    until: 2,
    request: { params: z.object({ uid: z.uuid() }) },
    errors: [brigErrors.userNotFound],
    responses: { 200: { description: 'User found', ...json(userProfile) } },
  },
  async (c) => {
    const profile = await profileOf(c, deps(c).domain, c.req.valid('param').uid);
    if (profile === undefined) throw new ApiError(brigErrors.userNotFound);
    return c.json(profile, 200);
  },
);

/** A local user by handle, as older versions look one up. */
async function localUserByHandle(c: Context<AppEnv>, handle: string): Promise<UserProfile | undefined> {
  const row = await userByHandle(c.env, handle, 'replica');
  return row === undefined ? undefined : (await profilesOf(c, [row]))[0];
}

export const getUserByHandleV1 = endpoint(
  {
    name: 'get-user-by-handle-qualified',
    method: 'get',
    path: '/users/by-handle/{handle_domain}/{handle}',
    until: 2,
    request: { params: z.object({ handle_domain: z.string(), handle: z.string() }) },
    errors: [brigErrors.handleNotFound, ...FEDERATED_CALL_ERRORS],
    responses: { 200: { description: 'User found', ...json(userProfile) } },
  },
  async (c) => {
    const { handle_domain, handle } = c.req.valid('param');
    const found =
      handle_domain === deps(c).domain
        ? await localUserByHandle(c, handle)
        : await remoteUserByHandle(c.get('config'), handle_domain, handle);
    if (found === undefined || found === null) throw new ApiError(brigErrors.handleNotFound);
    return c.json(found, 200);
  },
);

export const getHandleInfoUnqualified = endpoint(
  {
    name: 'get-handle-info-unqualified',
    method: 'get',
    path: '/users/handles/{handle}',
    until: 2,
    request: { params: z.object({ handle: z.string() }) },
    errors: [brigErrors.handleNotFound],
    responses: {
      200: {
        description: 'Whose the handle is',
        ...json(z.object({ qualified_user: qualifiedUserId, user: z.uuid() }).openapi('UserHandleInfo')),
      },
    },
  },
  async (c) => {
    const found = await localUserByHandle(c, c.req.valid('param').handle);
    if (found === undefined) throw new ApiError(brigErrors.handleNotFound);
    return c.json({ qualified_user: found.qualified_id, user: found.id }, 200);
  },
);

/** `a,b,c` as a list. */
const commaSeparated = z.string().transform((s) => s.split(','));

export const listUsersUnqualified = endpoint(
  {
    name: 'list-users-by-unqualified-ids-or-handles',
    method: 'get',
    path: '/users',
    until: 2,
    request: {
      query: z.object({
        ids: commaSeparated.pipe(z.array(z.uuid())).optional(),
        handles: commaSeparated.pipe(z.array(z.string()).min(1).max(4)).optional(),
      }),
    },
    errors: [commonErrors.badRequest],
    responses: { 200: { description: 'Users found', ...json(z.array(userProfile)) } },
  },
  async (c) => {
    const { ids, handles } = c.req.valid('query');
    const domain = deps(c).domain;
    // As wire's: ids win when both are given.
    if (ids !== undefined)
      return c.json((await listUsers(c, { qualified_ids: ids.map((id) => ({ id, domain })) })).found, 200);
    if (handles === undefined)
      throw new ApiError(commonErrors.badRequest, 'at least one ids or handles must be provided');
    const found = await listUsers(c, { qualified_handles: handles.map((handle) => ({ handle, domain })) });
    return c.json(found.found, 200);
  },
);

export const getSupportedProtocols = endpoint(
  {
    name: 'get-supported-protocols',
    method: 'get',
    path: '/users/{domain}/{uid}/supported-protocols',
    from: 5,
    request: { params: userParams },
    errors: [brigErrors.userNotFound, ...FEDERATED_CALL_ERRORS],
    responses: { 200: { description: 'Protocols the user supports', ...json(z.array(baseProtocol)) } },
  },
  async (c) => {
    const { domain, uid } = c.req.valid('param');
    const profile = await profileOf(c, domain, uid);
    if (profile === undefined || profile.deleted === true) throw new ApiError(brigErrors.userNotFound);
    return c.json(profile.supported_protocols, 200);
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

/** Users named by qualified id: local ones from the database, remote ones from their backends. */
async function usersByQualifiedIds(c: Context<AppEnv>, ids: readonly QualifiedId[]) {
  const byDomain = groupBy(ids, (u) => u.domain);
  const found: UserProfile[] = [];
  const failed: QualifiedId[] = [];
  for (const [domain, users] of byDomain) {
    const uids = users.map((u) => u.id);
    if (domain === deps(c).domain) {
      found.push(...(await profilesOf(c, await userStore.byIds(replicaOf(c.env.DB), uids))));
      continue;
    }
    const remote = await unlessUnreachable(remoteProfiles(c.get('config'), domain, uids));
    if (remote === undefined) failed.push(...users);
    else found.push(...remote);
  }
  return { found, failed };
}

/** Users named by id or handle, and the qualified ids that could not be listed. */
async function listUsers(c: Context<AppEnv>, q: z.infer<typeof listUsersQuery>) {
  if (q.qualified_ids !== undefined) return usersByQualifiedIds(c, q.qualified_ids);
  const found: UserProfile[] = [];
  for (const h of q.qualified_handles ?? []) {
    if (h.domain !== deps(c).domain) {
      const remote = await unlessUnreachable(remoteUserByHandle(c.get('config'), h.domain, h.handle));
      if (remote) found.push(remote);
      continue;
    }
    const row = await userByHandle(c.env, h.handle, 'replica');
    if (row !== undefined) found.push(...(await profilesOf(c, [row])));
  }
  return { found, failed: [] as QualifiedId[] };
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
