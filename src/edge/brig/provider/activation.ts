import type { Config } from '../../../shared/config/index.js';
import { base64url, sha256 } from '../../../shared/keys.js';
import type { Db } from '../../db/client.js';
import { codeStore } from '../codes/code-store.js';
import { sendMail } from '../email/mailer.js';

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
