/**
 * brig's face: what the components above brig (spar, nginz, bots) use of accounts directly.
 * Components below it ask through `UserAccess` (./user-access.ts), which the runtime hands them.
 */
import type { QualifiedId } from '../api/schemas/common.js';
import type { Db } from '../db/client.js';
import type { UserRow } from './users/user-json.js';
import { userStore } from './users/user-store.js';
import { richInfoStore } from './rich-info/rich-info-store.js';
import type { RichField } from '../../shared/db/schema.js';

/** A user's account as brig keeps it (status, team, identity, profile). */
export type { UserRow };

/** A user's account, if this backend has it. */
export function userById(db: Db, user: QualifiedId): Promise<UserRow | undefined> {
  return userStore.byId(db, user.id);
}

/** The accounts this backend has of these users. */
export function usersByIds(db: Db, users: readonly QualifiedId[]): Promise<UserRow[]> {
  const ids = users.map((u) => u.id);
  return userStore.byIds(db, ids);
}

/** Whether a password is the user's (after a rate-limit token); a correct scrypt hash may move to argon2id. */
export { checkUserPassword } from './password/passwords.js';
/** Demands a valid second-factor code for an action when the user's team requires one (403 otherwise). */
export { enforceVerificationCode } from './auth/verification-code.js';
/** Deletes an account for good; the user, their contacts and the team admins given hear of it. */
export { deleteAccount } from './accounts/delete-account.js';
/** Where the outbox's mailbox page is served. */
export { MAILBOX_PATH } from './email/mailbox.js';
/** The outbox's mailbox page, when the outbox sender has credentials (else undefined). */
export { serveMailbox } from './email/mailbox.js';

/** Creates an account; an identity provider's users join their team (`provisioned`). */
export { type AccountInput, createAccount, defaultUserLocale } from './accounts/create-account.js';

/** Keeps an address as the user's unvalidated one and mails it an activation code. */
export { requestEmailChange } from './accounts/email-change.js';

/** A new `zuid` cookie for the user, as the `Set-Cookie` value (SSO sign-ins). */
export { newCookieHeader } from './auth/session.js';

/** An identity provider's changes to one of its users (managed fields, status, rich info). */
export { updateProvisionedUser } from './accounts/provisioned-user.js';
/** A handle as brig accepts it (2–256 of a-z0-9_.-, not reserved). */
export { isValidHandle } from './users/handles.js';
/** An address as brig accepts it. */
export { isValidEmail } from './users/user-store.js';
/** The account holding this address (activated or not). */
export { userByEmail } from './users/user-names.js';
/** The account holding a handle. */
export { userByHandle } from './users/user-names.js';
/** A user's rich info fields (none when never set). */
export async function richInfoOf(db: Db, user: string): Promise<RichField[]> {
  return (await richInfoStore.get(db, user)) ?? [];
}
/** Rich info's size as the limit counts it, and its fields as stored (empty values dropped). */
export { normalizeRichInfo, richInfoSize } from './rich-info/rich-info-json.js';
/** A SCIM user without an IdP: a pending account and its mailed invitation. */
export { inviteProvisionedUser } from './invitations/scim-invitation.js';

/** What service providers' accounts share with users': codes, mail, password hashes, cookies. */
export { codeStore, type CodeScope } from './codes/code-store.js';
export { sendMail } from './email/mailer.js';
export { newPasswordHash, passwordMatches } from './password/passwords.js';
export { clientIp } from './password/rate-limit.js';
export { cookieHeader } from './auth/cookie-records.js';
export { keysOf } from './auth/session.js';
/** Moves the prekeys and key packages earlier versions kept in D1 into their users' Account objects. */
export { moveLegacyMaterial } from './clients/move-material.js';
