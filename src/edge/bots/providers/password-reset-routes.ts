// A provider's forgotten password (a mailed key and code, valid an hour) and its change of
// address (the new one is activated like the first; see activation.ts).
import { z } from '@hono/zod-openapi';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { providerErrors } from '../../api/errors/provider.js';
import { jsonBody } from '../../api/schemas/common.js';
import { database, runBatch } from '../../db/client.js';
import { codeStore, sendMail, newPasswordHash, passwordMatches } from '../../brig/face.js';
import { currentProvider } from './account-routes.js';
import { activationKey, liveCodeRoute, mailActivation } from './activation.js';
import { email, password } from './provider-json.js';
import { providerStore } from './provider-store.js';

const RESET_TTL_SECONDS = 3600;
const RESET_RETRIES = 3;
const SCOPE = 'provider-password-reset';

/** `POST /provider/password-reset`: mails a key and code for the activated address. */
const start = endpoint(
  {
    name: 'provider-password-reset',
    method: 'post',
    path: '/provider/password-reset',
    auth: 'none',
    request: jsonBody(z.object({ email }).openapi('PasswordReset')),
    errors: [providerErrors.invalidCredentials, providerErrors.codeExists],
    responses: { 201: { description: 'The key and code are mailed' } },
  },
  async (c) => {
    const address = c.req.valid('json').email;
    const db = database(c.env.DB);
    const p = await providerStore.byEmail(db, address);
    if (p === undefined || p.email !== address) throw new ApiError(providerErrors.invalidCredentials);
    const key = await activationKey(address);
    const live = await codeStore.live(db, SCOPE, key);
    if (live !== undefined) {
      const retryAfter = Math.max(1, Math.ceil((live.expiresAt - Date.now()) / 1000));
      throw new ApiError(providerErrors.codeExists, undefined, { 'retry-after': String(retryAfter) });
    }
    const code = await codeStore.issue(db, SCOPE, key, { user: p.id, email: address, ttlSeconds: RESET_TTL_SECONDS });
    await sendMail(
      c.env,
      c.get('config'),
      { email: address },
      { kind: 'provider-password-reset', key, code: code.code },
    );
    return c.body(null, 201);
  },
);

/** `POST /provider/password-reset/complete`: the new password, with the mailed key and code. */
const complete = endpoint(
  {
    name: 'provider-password-reset-complete',
    method: 'post',
    path: '/provider/password-reset/complete',
    auth: 'none',
    request: jsonBody(
      z.object({ key: z.string().min(1), code: z.string().min(1), password }).openapi('CompletePasswordReset'),
    ),
    errors: [providerErrors.invalidCode, providerErrors.resetCodeUnknown, providerErrors.passwordMustDiffer],
    responses: { 200: { description: 'The password is changed' } },
  },
  async (c) => {
    const body = c.req.valid('json');
    const config = c.get('config');
    const db = database(c.env.DB);
    const checked = await codeStore.check(db, SCOPE, body.key, body.code, RESET_RETRIES);
    if (!checked.ok) throw new ApiError(providerErrors.invalidCode);
    const p = checked.stored.user === null ? undefined : await providerStore.byId(db, checked.stored.user);
    // The address it was mailed to must still be the provider's.
    if (p === undefined || p.email !== checked.stored.email) throw new ApiError(providerErrors.resetCodeUnknown);
    const caller = { user: p.id };
    if (await passwordMatches(c.env, config, caller, p.password, body.password))
      throw new ApiError(providerErrors.passwordMustDiffer);
    await runBatch(db, [
      providerStore.update(db, p.id, { password: await newPasswordHash(c.env, config, caller, body.password) }),
      codeStore.consume(db, SCOPE, body.key),
    ]);
    return c.body(null, 200);
  },
);

/** `PUT /provider/email`: a new address, the provider's once activated; a reset code of the old one dies. */
const changeEmail = endpoint(
  {
    name: 'provider-update-email',
    method: 'put',
    path: '/provider/email',
    auth: 'provider',
    request: jsonBody(z.object({ email }).openapi('EmailUpdate')),
    errors: [providerErrors.providerNotFound, providerErrors.emailExists],
    responses: { 202: { description: 'The new address awaits activation' } },
  },
  async (c) => {
    const address = c.req.valid('json').email;
    const db = database(c.env.DB);
    const p = await currentProvider(c, db);
    const holder = await providerStore.byEmail(db, address);
    if (holder !== undefined && holder.id !== p.id) throw new ApiError(providerErrors.emailExists);
    await providerStore.update(db, p.id, { pendingEmail: address }).run();
    await mailActivation(c.env, c.get('config'), db, { provider: p.id, name: p.name, email: address });
    return c.body(null, 202);
  },
);

const resetCode = liveCodeRoute(
  'get-provider-password-reset-code',
  '/i/provider/password-reset-code',
  'provider-password-reset',
);

export const providerResetEndpoints: Endpoint[] = [start, complete, changeEmail];
export const providerResetInternalEndpoints: Endpoint[] = [resetCode];
