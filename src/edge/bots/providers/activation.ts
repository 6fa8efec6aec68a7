import { z } from '@hono/zod-openapi';
import type { Config } from '../../../shared/config/index.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { base64url, sha256 } from '../../../shared/keys.js';
import type { Db } from '../../db/client.js';
import { type CodeScope, codeStore, sendMail } from '../../brig/face.js';
import { email } from './provider-json.js';

const ACTIVATION_TTL_SECONDS = 24 * 3600;
export const ACTIVATION_RETRIES = 3;

/** The activation key of an address: SHA-256 of it, base64url (as wire derives it). */
export async function activationKey(email: string): Promise<string> {
  return base64url(await sha256(email.toLowerCase()));
}

/** Issues the provider's activation code for the address and mails it with its key. */
export async function mailActivation(
  env: Env,
  config: Config,
  db: Db,
  o: { provider: string; name: string; email: string },
): Promise<void> {
  const key = await activationKey(o.email);
  const code = await codeStore.issue(db, 'provider-activation', key, {
    user: o.provider,
    email: o.email,
    ttlSeconds: ACTIVATION_TTL_SECONDS,
  });
  await sendMail(env, config, { email: o.email }, { kind: 'provider-activation', name: o.name, key, code: code.code });
}

/** `GET /i/provider/<what>?email=`: the live key and code mailed to a provider's address (tests, operators). */
export const liveCodeRoute = (name: string, path: string, scope: CodeScope) =>
  endpoint(
    {
      name,
      method: 'get',
      path,
      request: { query: z.object({ email }) },
      errors: [brigErrors.invalidActivationCode],
      responses: { 200: { description: 'The key and code', ...json(z.object({ key: z.string(), code: z.string() })) } },
    },
    async (c) => {
      const key = await activationKey(c.req.valid('query').email);
      const live = await codeStore.live(database(c.env.DB), scope, key);
      if (live === undefined) throw new ApiError(brigErrors.invalidActivationCode);
      return c.json({ key, code: live.code }, 200);
    },
  );
