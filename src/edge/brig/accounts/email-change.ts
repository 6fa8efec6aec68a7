import { z } from '@hono/zod-openapi';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import type { UserRow } from '../users/user-json.js';
import { emailKeyOf, isValidEmail, userStore } from '../users/user-store.js';
import { publishEffect } from '../../events/publish.js';
import { userEvents } from '../../events/user-events.js';
import { emailDomainSignsInThrough, guardEmailChange } from '../domains/email-guards.js';
import { sendActivationCode, setVerifiedEmail } from './activation.js';
import type { Deps } from '../../api/deps.js';
import { userByEmail } from '../users/user-names.js';

export const emailUpdate = z.object({ email: z.string() }).openapi('EmailUpdate');

/**
 * Starts moving a user to a new address (the user's own request or a team admin's): the address
 * is kept as unvalidated and mailed an activation code; `/activate` with it makes the switch.
 * The current address changes nothing. A domain registered to another team or backend refuses
 * the move; one whose users sign in through the user's team's IdP needs no verification when the
 * team's provider sets it.
 */
export async function requestEmailChange(
  d: Deps,
  user: UserRow,
  email: string,
  /** The team's identity provider (SCIM or SAML) sets the address of a user it manages. */
  byProvider = false,
  /** For a provider: whether the address is validated first (the team's validateSAMLemails). */
  validate = true,
): Promise<'unchanged' | 'pending-activation' | 'activated'> {
  const { env, db, config } = d;
  if (!isValidEmail(email)) throw new ApiError(brigErrors.invalidEmail);
  if (user.emailKey === emailKeyOf(email)) return 'unchanged';
  if ((await userByEmail(env, email))?.activated) throw new ApiError(brigErrors.keyExists);
  if (user.managedBy === 'scim' && !byProvider) throw new ApiError(brigErrors.emailManagedByScim);
  // The team's own IdP signs the domain's users in: its address is the team's to give (wire lets it
  // through whatever the domain's invite rule says, and unvalidated).
  const signsInThrough = byProvider && user.team !== null && (await emailDomainSignsInThrough(db, email, user.team));
  if (!signsInThrough) await guardEmailChange(d, email, user.team);
  if (byProvider && user.team !== null && (!validate || signsInThrough)) {
    await setVerifiedEmail(env, config, user.id, email, [
      publishEffect([{ user: user.id }], userEvents.update({ id: user.id, email })),
    ]);
    return 'activated';
  }
  await userStore.update(db, user.id, { emailUnvalidated: email });
  await sendActivationCode(env, db, config, { email, user: user.id, name: user.name, locale: user.locale });
  return 'pending-activation';
}
