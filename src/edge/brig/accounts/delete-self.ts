import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { roleInTeam } from '../../galley/face.js';
import { codeStore } from '../codes/code-store.js';
import { base64url, randomToken, sha256 } from '../../../shared/keys.js';
import { sendMail } from '../email/mailer.js';
import { checkUserPassword } from '../password/passwords.js';
import { emailKeyOf, userStore } from '../users/user-store.js';
import { deleteAccount } from './delete-account.js';

const DELETION_TTL_SECONDS = 600;
const DELETION_RETRIES = 3;

/** The deletion key of an address: base64url of the first 15 bytes of SHA-256 (20 characters). */
const deletionKeyOf = async (email: string) => base64url((await sha256(emailKeyOf(email))).slice(0, 15));

export const deleteSelf = endpoint(
  {
    name: 'delete-self',
    method: 'delete',
    path: '/self',
    request: jsonBody(z.object({ password: z.string().min(6).max(1024).optional() }).openapi('DeleteUser')),
    errors: [
      brigErrors.invalidCredentials,
      brigErrors.noSelfDeleteForTeamOwner,
      brigErrors.pendingDelete,
      brigErrors.invalidUser,
    ],
    responses: {
      200: { description: 'Deleted' },
      202: {
        description: 'A deletion code was mailed',
        ...json(z.object({ expires_in: z.int() }).openapi('DeletionCodeTimeout')),
      },
    },
  },
  async (c) => {
    const { password } = c.req.valid('json');
    const config = c.get('config');
    const db = database(c.env.DB);
    const user = await userStore.byId(db, self(c).user);
    if (user === undefined) throw new ApiError(brigErrors.invalidUser);
    if (user.status === 'deleted') return c.body(null, 200);
    const owner = user.team !== null && (await roleInTeam(db, user.team, user.id)) === 'owner';
    if (owner && (user.status === 'active' || user.status === 'suspended'))
      throw new ApiError(brigErrors.noSelfDeleteForTeamOwner);
    if (password !== undefined) {
      if (!(await checkUserPassword(c.env, db, config, { user: user.id }, user, password)))
        throw new ApiError(brigErrors.invalidCredentials);
    } else if (user.email !== null) {
      const key = await deletionKeyOf(user.email);
      const pending = await codeStore.live(db, 'deletion', key);
      if (pending !== undefined)
        throw new ApiError(
          brigErrors.pendingDelete,
          undefined,
          {},
          { expires_in: Math.ceil((pending.expiresAt - Date.now()) / 1000) },
        );
      const stored = await codeStore.issue(db, 'deletion', key, {
        user: user.id,
        ttlSeconds: DELETION_TTL_SECONDS,
        code: randomToken(15),
      });
      await sendMail(
        c.env,
        config,
        { email: user.email, locale: user.locale },
        { kind: 'deletion', name: user.name, key, code: stored.code },
      );
      return c.json({ expires_in: DELETION_TTL_SECONDS }, 202);
    }
    await deleteAccount(c.env, db, config, user, self(c));
    return c.body(null, 200);
  },
);

export const verifyDelete = endpoint(
  {
    name: 'verify-delete',
    method: 'post',
    path: '/delete',
    auth: 'none',
    request: jsonBody(
      z.object({ key: z.string().length(20), code: z.string().min(6).max(20) }).openapi('VerifyDeleteUser'),
    ),
    errors: [brigErrors.invalidDeletionCode],
    responses: { 200: { description: 'Deleted' } },
  },
  async (c) => {
    const { key, code } = c.req.valid('json');
    const db = database(c.env.DB);
    const check = await codeStore.check(db, 'deletion', key, code, DELETION_RETRIES);
    if (!check.ok || check.stored.user === null) throw new ApiError(brigErrors.invalidDeletionCode);
    const user = await userStore.byId(db, check.stored.user);
    await codeStore.consume(db, 'deletion', key);
    if (user !== undefined && user.status !== 'deleted') await deleteAccount(c.env, db, c.get('config'), user);
    return c.body(null, 200);
  },
);
