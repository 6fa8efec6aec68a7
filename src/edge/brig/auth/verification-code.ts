import { z } from '@hono/zod-openapi';
import type { Config } from '../../../shared/config/index.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { database, type Db } from '../../db/client.js';
import { sndFactorRequired } from '../../galley/face.js';
import { codeStore } from '../codes/code-store.js';
import { sendMail } from '../email/mailer.js';
import type { UserRow } from '../users/user-json.js';
import { userByEmail } from '../users/user-names.js';

const verificationAction = z.enum(['login', 'create_scim_token', 'delete_team']).openapi('VerificationAction');
export type VerificationAction = z.infer<typeof verificationAction>;

/** A second-factor code may be tried this many times. */
const CODE_RETRIES = 3;

/**
 * Demands a valid second-factor code for the action when `sndFactorPasswordChallenge` applies to
 * the user (403 `code-authentication-required` / `code-authentication-failed`).
 */
export async function enforceVerificationCode(
  db: Db,
  config: Config,
  user: UserRow,
  action: VerificationAction,
  code: string | undefined,
): Promise<void> {
  if (!(await sndFactorRequired(db, config, user))) return;
  if (code === undefined) throw new ApiError(brigErrors.codeAuthenticationRequired);
  if (user.email === null) throw new ApiError(brigErrors.codeAuthenticationFailed);
  const check = await codeStore.check(db, `verify:${action}`, user.id, code, CODE_RETRIES);
  if (!check.ok) throw new ApiError(brigErrors.codeAuthenticationFailed);
}

export const sendVerificationCode = endpoint(
  {
    name: 'send-verification-code',
    method: 'post',
    path: '/verification-code/send',
    auth: 'none',
    request: jsonBody(z.object({ action: verificationAction, email: z.string() }).openapi('SendVerificationCode')),
    errors: [brigErrors.verificationCodeThrottled],
    responses: { 200: { description: 'Verification code sent (when the feature applies to the address)' } },
  },
  async (c) => {
    const { action, email } = c.req.valid('json');
    const config = c.get('config');
    const { optSettings } = config.brig;
    const db = database(c.env.DB);
    const user = await userByEmail(c.env, email);
    // Unknown addresses and users without the feature get the same answer: nothing is revealed.
    if (user === undefined || !user.activated || !(await sndFactorRequired(db, config, user))) return c.body(null, 200);
    const previous = await codeStore.live(db, `verify:${action}`, user.id);
    const waited = previous === undefined ? Infinity : (Date.now() - previous.createdAt) / 1000;
    if (waited < optSettings.set2FACodeGenerationDelaySecs) {
      const retryAfter = Math.ceil(optSettings.set2FACodeGenerationDelaySecs - waited);
      throw new ApiError(brigErrors.verificationCodeThrottled, undefined, { 'retry-after': String(retryAfter) });
    }
    const stored = await codeStore.issue(db, `verify:${action}`, user.id, {
      email,
      ttlSeconds: optSettings.setVerificationTimeout,
    });
    await sendMail(c.env, config, { email, locale: user.locale }, { kind: 'verification', action, code: stored.code });
    return c.body(null, 200);
  },
);

export const getVerificationCode = endpoint(
  {
    name: 'get-verification-code',
    method: 'get',
    path: '/i/users/{uid}/verification-code/{action}',
    request: { params: z.object({ uid: z.uuid(), action: verificationAction }) },
    responses: { 200: { description: 'The live code, or null', ...json(z.string().nullable()) } },
  },
  async (c) => {
    const { uid, action } = c.req.valid('param');
    const stored = await codeStore.live(database(c.env.DB), `verify:${action}`, uid);
    return c.json(stored?.code ?? null, 200);
  },
);
