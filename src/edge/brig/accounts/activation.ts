import type { Config } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { database, type Db } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import type { Effect } from '../../effects/effect.js';
import { isUniqueViolation } from '../../db/errors.js';
import { codeStore, type StoredCode } from '../codes/code-store.js';
import { base64url, sha256 } from '../../../shared/keys.js';
import { sendMail } from '../email/mailer.js';
import { emailKeyOf, userStore } from '../users/user-store.js';
import { passwordResetKeyOf } from './password-reset.js';
import { renaming } from '../users/user-names.js';

export const ACTIVATION_RETRIES = 3;

/** The activation key of an address: base64url(SHA-256(lower-cased address)), as `/activate` takes it. */
export async function activationKeyOf(email: string): Promise<string> {
  return base64url(await sha256(emailKeyOf(email)));
}

/**
 * Mails an activation code for the address: a fresh one bound to the user (registration), or,
 * with `resend`, the code still pending for the address if there is one.
 */
export async function sendActivationCode(
  env: Env,
  db: Db,
  config: Config,
  to: { email: string; user?: string | undefined; name?: string | undefined; locale?: string | undefined },
  o: { resend?: boolean } = {},
): Promise<StoredCode> {
  const key = await activationKeyOf(to.email);
  const pending = o.resend ? await codeStore.live(db, 'activation', key) : undefined;
  const stored =
    pending ??
    (await codeStore.issue(db, 'activation', key, {
      ...(to.user ? { user: to.user } : {}),
      email: to.email,
      ttlSeconds: config.brig.optSettings.setActivationTimeout,
    }));
  await sendMail(
    env,
    config,
    { email: to.email, locale: to.locale },
    { kind: 'activation', name: to.name, code: stored.code },
  );
  return stored;
}

/** The fields of a user whose verified address is `email`. */
export const verifiedEmail = (email: string) => ({
  activated: true,
  email,
  emailKey: emailKeyOf(email),
  emailUnvalidated: null,
});

/**
 * Makes `email` the user's verified address, ending any password reset started for the old one,
 * as one change with `effects` (the events telling of it); 409 `key-exists` when another account
 * verified it meanwhile.
 */
export async function setVerifiedEmail(
  env: Env,
  config: Config,
  user: string,
  email: string,
  effects: Effect[],
): Promise<void> {
  const db = database(env.DB);
  const statements = [
    userStore.update(db, user, verifiedEmail(email)),
    codeStore.consume(db, 'password-reset', await passwordResetKeyOf(user)),
  ];
  const current = await userStore.byId(db, user);
  const gone = { emailKey: null, handle: null };
  try {
    await renaming(env, user, current ?? gone, { ...(current ?? gone), ...verifiedEmail(email) }, () =>
      commitChange(env, config, { statements, effects }),
    );
  } catch (err) {
    if (isUniqueViolation(err, 'users.email_key')) throw new ApiError(brigErrors.keyExists);
    throw err;
  }
}
