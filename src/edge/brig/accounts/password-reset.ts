import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { commonErrors } from '../../api/errors/common.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { database, runBatch } from '../../db/client.js';
import { cookieRecords } from '../auth/cookie-records.js';
import { codeStore } from '../codes/code-store.js';
import { base64url, randomToken, sha256 } from '../../../shared/keys.js';
import { sendMail } from '../email/mailer.js';
import { verifyPassword } from '../../../shared/password-hash.js';
import { newPasswordHash } from '../password/passwords.js';
import { clientIp } from '../password/rate-limit.js';
import type { UserRow } from '../users/user-json.js';
import { userByEmail } from '../users/user-names.js';
import { userStore } from '../users/user-store.js';

const RESET_TTL_SECONDS = 3600;
const RESET_RETRIES = 3;

export const passwordResetKeyOf = async (user: string) => base64url(await sha256(user));

async function activeUserByEmail(env: Env, email: string): Promise<UserRow | undefined> {
  const user = await userByEmail(env, email);
  return user?.activated && user.status === 'active' ? user : undefined;
}

/** `POST /password-reset`: mails a reset code. Always 201, so nobody learns which addresses exist. */
export const startPasswordReset = endpoint(
  {
    name: 'post-password-reset',
    method: 'post',
    path: '/password-reset',
    auth: 'none',
    request: jsonBody(
      z.object({ email: z.string().optional(), phone: z.unknown().optional() }).openapi('NewPasswordReset'),
    ),
    errors: [brigErrors.invalidPhone],
    responses: { 201: { description: 'Password reset code created and sent by email' } },
  },
  async (c) => {
    const body = c.req.valid('json');
    if (body.phone !== undefined) throw new ApiError(brigErrors.invalidPhone);
    if (body.email === undefined) throw new ApiError(commonErrors.badRequest, 'email is required');
    const db = database(c.env.DB);
    const user = await activeUserByEmail(c.env, body.email);
    if (user === undefined) return c.body(null, 201);
    const key = await passwordResetKeyOf(user.id);
    const stored =
      (await codeStore.live(db, 'password-reset', key)) ??
      (await codeStore.issue(db, 'password-reset', key, {
        user: user.id,
        ttlSeconds: RESET_TTL_SECONDS,
        code: randomToken(24),
      }));
    await sendMail(
      c.env,
      c.get('config'),
      { email: user.email!, locale: user.locale },
      { kind: 'password-reset', code: stored.code },
    );
    return c.body(null, 201);
  },
);

export const completePasswordReset = endpoint(
  {
    name: 'post-password-reset-complete',
    method: 'post',
    path: '/password-reset/complete',
    auth: 'none',
    request: jsonBody(
      z
        .object({
          key: z.string().optional(),
          email: z.string().optional(),
          phone: z.unknown().optional(),
          code: z.string().min(1),
          password: z.string().min(8).max(1024),
        })
        .openapi('CompletePasswordReset'),
    ),
    errors: [brigErrors.invalidPasswordResetCode, brigErrors.invalidPasswordResetKey, brigErrors.passwordMustDiffer],
    responses: { 200: { description: 'Password changed; every cookie is revoked' } },
  },
  async (c) => {
    const body = c.req.valid('json');
    if (body.phone !== undefined) throw new ApiError(brigErrors.invalidPhone);
    let key = body.key;
    if (key === undefined) {
      if (body.email === undefined) throw new ApiError(commonErrors.badRequest, 'key or email is required');
      const user = await activeUserByEmail(c.env, body.email);
      if (user === undefined) throw new ApiError(brigErrors.invalidPasswordResetKey);
      key = await passwordResetKeyOf(user.id);
    }
    return resetWithKey(c, key, body.code, body.password);
  },
);

/** The reset a key and code name sets the new password and revokes every cookie. */
async function resetWithKey(c: Context<AppEnv>, key: string, code: string, password: string) {
  const config = c.get('config');
  const db = database(c.env.DB);
  const check = await codeStore.check(db, 'password-reset', key, code, RESET_RETRIES);
  if (!check.ok || check.stored.user === null) throw new ApiError(brigErrors.invalidPasswordResetCode);
  const user = await userStore.byId(db, check.stored.user);
  if (user === undefined || user.status !== 'active') throw new ApiError(brigErrors.invalidPasswordResetCode);
  const options = config.brig.optSettings.setPasswordHashingOptions;
  if (user.password !== null && (await verifyPassword(password, user.password, options)).ok)
    throw new ApiError(brigErrors.passwordMustDiffer);
  const hash = await newPasswordHash(c.env, config, { ip: clientIp(c.req.raw) }, password);
  // The cookies first: should the change fail, the user signs in again, never the reverse.
  await cookieRecords.revoke(c.env, user.id);
  await runBatch(db, [userStore.update(db, user.id, { password: hash }), codeStore.consume(db, 'password-reset', key)]);
  return c.body(null, 200);
}

/** `POST /password-reset/{key}` (until v8): the key in the path. */
export const completePasswordResetByKey = endpoint(
  {
    name: 'post-password-reset-key-deprecated',
    method: 'post',
    path: '/password-reset/{key}',
    until: 8,
    auth: 'none',
    request: {
      params: z.object({ key: z.string().min(1) }),
      ...jsonBody(
        z.object({ code: z.string().min(1), password: z.string().min(8).max(1024) }).openapi('PasswordReset'),
      ),
    },
    errors: [brigErrors.invalidPasswordResetCode, brigErrors.invalidPasswordResetKey, brigErrors.passwordMustDiffer],
    responses: { 200: { description: 'Password changed; every cookie is revoked' } },
  },
  async (c) => {
    const { code, password } = c.req.valid('json');
    return resetWithKey(c, c.req.valid('param').key, code, password);
  },
);

export const getPasswordResetCode = endpoint(
  {
    name: 'get-password-reset-code',
    method: 'get',
    path: '/i/users/password-reset-code',
    request: { query: z.object({ email: z.string() }) },
    errors: [brigErrors.invalidPasswordResetKey],
    responses: { 200: { description: 'The pending reset', ...json(z.object({ key: z.string(), code: z.string() })) } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const user = await activeUserByEmail(c.env, c.req.valid('query').email);
    const key = user === undefined ? undefined : await passwordResetKeyOf(user.id);
    const stored = key === undefined ? undefined : await codeStore.live(db, 'password-reset', key);
    if (key === undefined || stored === undefined) throw new ApiError(brigErrors.invalidPasswordResetKey);
    return c.json({ key, code: stored.code }, 200);
  },
);
