import { z } from '@hono/zod-openapi';
import type { Config } from '../../../shared/config/index.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { commonErrors } from '../../api/errors/common.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { activationKeyOf } from '../accounts/activation.js';
import { codeStore } from '../codes/code-store.js';
import { checkUserPassword } from '../password/passwords.js';
import type { UserRow } from '../users/user-json.js';
import { accessTokenJson, issueAccessToken } from './access-token.js';
import { cookieRecords, type CookieKind } from './cookie-records.js';
import { loginWait } from './cookie-throttle.js';
import { recordFailedLogin, refuseIfLoginBlocked } from './failed-logins.js';
import { keysOf, newCookieHeader } from './session.js';
import { enforceVerificationCode } from './verification-code.js';
import { userByEmail, userByHandle } from '../users/user-names.js';

const loginBody = z
  .object({
    email: z.string().optional(),
    handle: z.string().optional(),
    password: z.string().min(6).max(1024),
    label: z.string().optional(),
    verification_code: z.string().optional(),
  })
  .openapi('Login');

/** The account a login names; an address still waiting for activation says so. */
async function resolveLogin(env: Env, body: z.infer<typeof loginBody>): Promise<UserRow> {
  const user = body.email !== undefined ? await userByEmail(env, body.email) : await userByHandle(env, body.handle!);
  if (user !== undefined && (body.email === undefined || user.activated)) return user;
  if (body.email !== undefined) {
    const pending = await codeStore.live(database(env.DB), 'activation', await activationKeyOf(body.email));
    if (pending?.user) throw new ApiError(brigErrors.pendingActivation);
  }
  throw new ApiError(brigErrors.invalidCredentials);
}

function refuseByStatus(user: UserRow): void {
  if (user.status === 'deleted' || user.password === null) throw new ApiError(brigErrors.invalidCredentials);
  if (user.status === 'suspended') throw new ApiError(brigErrors.suspended);
  if (user.status === 'ephemeral') throw new ApiError(brigErrors.ephemeral);
  if (user.status === 'pending-invitation') throw new ApiError(brigErrors.pendingActivation);
}

/** `setUserCookieThrottle`: 429 with `Retry-After` when a user at the cookie limit logs in too often. */
async function refuseTooFrequentLogins(env: Env, config: Config, user: string, kind: CookieKind): Promise<void> {
  const { setUserCookieLimit, setUserCookieThrottle } = config.brig.optSettings;
  const now = Date.now();
  const live = (await cookieRecords.list(env, user)).filter((r) => r.kind === kind && r.expiresAt * 1000 > now);
  if (live.length < setUserCookieLimit) return;
  const wait = loginWait(
    now,
    setUserCookieThrottle,
    live.map((r) => r.createdAt),
  );
  if (wait !== undefined) throw new ApiError(brigErrors.loginThrottled, undefined, { 'retry-after': String(wait) });
}

/** `POST /login`: email or handle and password; a session cookie, or a persistent one with `persist=true`. */
export const login = endpoint(
  {
    name: 'login',
    method: 'post',
    path: '/login',
    auth: 'none',
    request: { query: z.object({ persist: z.enum(['true', 'false']).optional() }), ...jsonBody(loginBody) },
    errors: [
      brigErrors.invalidCredentials,
      brigErrors.pendingActivation,
      brigErrors.suspended,
      brigErrors.ephemeral,
      brigErrors.tooManyFailedLogins,
      brigErrors.loginThrottled,
      brigErrors.codeAuthenticationRequired,
      brigErrors.codeAuthenticationFailed,
      brigErrors.rateLimitExceeded,
    ],
    responses: { 200: { description: 'Logged in', ...json(accessTokenJson) } },
  },
  async (c) => {
    const body = c.req.valid('json');
    if (body.email === undefined && body.handle === undefined)
      throw new ApiError(commonErrors.badRequest, "'email' or 'handle' required");
    const config = c.get('config');
    const db = database(c.env.DB);
    const user = await resolveLogin(c.env, body);
    await refuseIfLoginBlocked(c.env, config, user.id);
    refuseByStatus(user);
    if (!(await checkUserPassword(c.env, db, config, { user: user.id }, user, body.password))) {
      await recordFailedLogin(c.env, config, user.id);
      throw new ApiError(brigErrors.invalidCredentials);
    }
    try {
      await enforceVerificationCode(db, config, user, 'login', body.verification_code);
    } catch (err) {
      // A wrong code is a failed attempt; a missing one is the first step of every 2FA login.
      if (err instanceof ApiError && err.spec === brigErrors.codeAuthenticationFailed)
        await recordFailedLogin(c.env, config, user.id);
      throw err;
    }
    const kind = c.req.valid('query').persist === 'true' ? 'persistent' : 'session';
    await refuseTooFrequentLogins(c.env, config, user.id, kind);
    c.header('set-cookie', await newCookieHeader(c, user.id, { kind, label: body.label }));
    return c.json(await issueAccessToken(await keysOf(c), config, user.id), 200);
  },
);
