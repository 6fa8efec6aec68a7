import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody, locale } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { cookieRecords } from '../auth/cookie-records.js';
import { claimStandingChangedEffect } from '../clients/account-object.js';
import { newPasswordHash } from '../password/passwords.js';
import { baseProtocol, selfJson, selfUser } from '../users/user-json.js';
import { isValidEmail, userStore } from '../users/user-store.js';
import { createAccount } from './create-account.js';
import { deleteAccount } from './delete-account.js';
import { newTeam } from './new-user.js';
import { deps } from '../../api/deps.js';
import { userByEmail, userByHandle } from '../users/user-names.js';

/** `POST /i/users`: an account with a verified email (no code, no cookie), for operators and tests. */
export const createUserNoVerify = endpoint(
  {
    name: 'create-user-no-verify',
    method: 'post',
    path: '/i/users',
    request: jsonBody(
      z.object({
        name: z.string().min(1).max(128),
        email: z.string().optional(),
        password: z.string().min(8).max(1024).optional(),
        locale: locale.optional(),
        supported_protocols: z.array(baseProtocol).optional(),
        team: newTeam.optional(),
      }),
    ),
    errors: [brigErrors.invalidEmail, brigErrors.keyExists],
    responses: { 201: { description: 'User created', ...json(selfUser) } },
  },
  async (c) => {
    const body = c.req.valid('json');
    if (body.email !== undefined && !isValidEmail(body.email)) throw new ApiError(brigErrors.invalidEmail);
    const config = c.get('config');
    if (body.email !== undefined && (await userByEmail(c.env, body.email))?.activated)
      throw new ApiError(brigErrors.keyExists);
    const passwordHash = body.password && (await newPasswordHash(c.env, config, 'internal', body.password));
    const user = await createAccount(c.env, config, {
      name: body.name,
      email: body.email,
      emailVerified: true,
      passwordHash,
      locale: body.locale,
      supportedProtocols: body.supported_protocols,
      newTeam: body.team && { name: body.team.name, icon: body.team.icon, iconKey: body.team.icon_key },
    });
    c.header('location', user.id);
    return c.json(selfJson(user, deps(c).domain), 201);
  },
);

/** `PUT /i/users/{uid}/status`: suspend (revoking every cookie) or reactivate an account. */
export const putUserStatus = endpoint(
  {
    name: 'put-user-status',
    method: 'put',
    path: '/i/users/{uid}/status',
    request: {
      params: z.object({ uid: z.uuid() }),
      ...jsonBody(z.object({ status: z.enum(['active', 'suspended']) })),
    },
    errors: [brigErrors.userNotFound],
    responses: { 200: { description: 'Status changed' } },
  },
  async (c) => {
    const { uid } = c.req.valid('param');
    const { status } = c.req.valid('json');
    const db = database(c.env.DB);
    const user = await userStore.byId(db, uid);
    if (user === undefined || user.status === 'deleted') throw new ApiError(brigErrors.userNotFound);
    // A suspended user's cookies go first: should the change fail, they sign in again.
    if (status === 'suspended') await cookieRecords.revoke(c.env, uid);
    await commitChange(c.env, c.get('config'), {
      statements: [userStore.update(db, uid, { status })],
      effects: [claimStandingChangedEffect({ user: uid })],
    });
    return c.body(null, 200);
  },
);

/** `GET /i/users/{uid}/status`: the account's status (active, suspended, deleted, ...). */
export const getUserStatus = endpoint(
  {
    name: 'get-user-status',
    method: 'get',
    path: '/i/users/{uid}/status',
    request: { params: z.object({ uid: z.uuid() }) },
    errors: [brigErrors.userNotFound],
    responses: {
      200: { description: 'The status', ...json(z.object({ status: z.string() }).openapi('AccountStatusResp')) },
    },
  },
  async (c) => {
    const user = await userStore.byId(database(c.env.DB), c.req.valid('param').uid);
    if (user === undefined) throw new ApiError(brigErrors.userNotFound);
    return c.json({ status: user.status }, 200);
  },
);

/** `DELETE /i/users/{uid}`: deletes an account outright (operators, the back office): 202, or 200 when it was gone. */
export const deleteUserNoAuth = endpoint(
  {
    name: 'delete-user-no-auth',
    method: 'delete',
    path: '/i/users/{uid}',
    request: { params: z.object({ uid: z.uuid() }) },
    errors: [brigErrors.userNotFound],
    responses: { 202: { description: 'Account deleted' }, 200: { description: 'The account was deleted before' } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const user = await userStore.byId(db, c.req.valid('param').uid);
    if (user === undefined) throw new ApiError(brigErrors.userNotFound);
    if (user.status === 'deleted') return c.body(null, 200);
    await deleteAccount(c.env, db, c.get('config'), user);
    return c.body(null, 202);
  },
);

const commaList = (max: number) =>
  z
    .string()
    .transform((s) => s.split(',').filter((x) => x !== ''))
    .pipe(z.array(z.string()).min(1).max(max));

/**
 * `GET /i/users?ids=|handles=|email=`: accounts with their status (wire's UserAccount), for
 * operators and the back office; exactly one of the three. Deleted accounts are left out, and so
 * (by id or handle) are pending invitations unless `includePendingInvitations=true`.
 */
export const lookupUsers = endpoint(
  {
    name: 'iget-users',
    method: 'get',
    path: '/i/users',
    request: {
      query: z
        .object({
          ids: commaList(100).optional(),
          handles: commaList(100).optional(),
          email: z.string().optional(),
          includePendingInvitations: z.enum(['true', 'false']).optional(),
        })
        .refine((q) => [q.ids, q.handles, q.email].filter((x) => x !== undefined).length === 1, {
          message: 'exactly one of ids, handles and email',
        }),
    },
    responses: { 200: { description: 'The accounts found', ...json(z.array(z.looseObject({ status: z.string() }))) } },
  },
  async (c) => {
    const q = c.req.valid('query');
    const db = database(c.env.DB);
    const found =
      q.ids !== undefined
        ? await userStore.byIds(db, q.ids)
        : q.handles !== undefined
          ? await Promise.all(q.handles.map((h) => userByHandle(c.env, h.toLowerCase())))
          : isValidEmail(q.email!)
            ? [await userByEmail(c.env, q.email!)]
            : [];
    const domain = deps(c).domain;
    // By id or handle, invited users who have not registered yet are left out unless asked for (wire).
    const pendingToo = q.email !== undefined || q.includePendingInvitations === 'true';
    const accounts = found.filter(
      (u) => u !== undefined && u.status !== 'deleted' && (pendingToo || u.status !== 'pending-invitation'),
    );
    return c.json(
      accounts.map((u) => ({ ...selfJson(u!, domain), status: u!.status })),
      200,
    );
  },
);
