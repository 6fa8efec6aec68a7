// What a team's identity provider (SCIM) changes about one of its users, where a user may not:
// the fields it manages, the account's status, its rich info.
import { type Config, localDomain } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { type BatchStatement, type Db, partitionFor, partitionOfStatements, runBatch } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { RichField } from '../../../shared/db/schema.js';
import { publishEffect } from '../../events/publish.js';
import { userEvents } from '../../events/user-events.js';
import { claimStandingChangedEffect } from '../clients/account-object.js';
import { cookieRecords } from '../auth/cookie-records.js';
import { richInfoStore } from '../rich-info/rich-info-store.js';
import type { UserRow } from '../users/user-json.js';
import { userStore } from '../users/user-store.js';
import { contactsOf } from '../users/contacts.js';
import { renaming } from '../users/user-names.js';

export interface ProvisionedChanges {
  name?: string | undefined;
  handle?: string | undefined;
  locale?: string | undefined;
  /** Suspending revokes every cookie. */
  status?: 'active' | 'suspended' | undefined;
  ssoId?: unknown;
  /** A user SCIM takes over (wire's setManagedBy). */
  managedBy?: 'scim' | undefined;
  richInfo?: RichField[] | undefined;
}

/**
 * Applies the changes and the provider's own `records` in one batch (409 `handle-exists` when
 * the handle is taken), with `user.update` to the user and their contacts for a new name, handle or locale.
 * Records of another partition than the user's (the team's, for a user who joined it with an
 * account of their own) are written first, as claims the user's row then confirms.
 */
export async function updateProvisionedUser(
  env: Env,
  db: Db,
  config: Config,
  user: UserRow,
  changes: ProvisionedChanges,
  records: readonly BatchStatement[] = [],
): Promise<UserRow> {
  const { richInfo, ...fields } = changes;
  const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<UserRow>;
  const here = partitionFor(db, user.id);
  const apart = records.filter((r) => partitionOfStatements(db, [r]) !== here);
  await runBatch(db, apart);
  const statements: BatchStatement[] = records.filter((r) => !apart.includes(r));
  if (Object.keys(patch).length > 0) statements.push(userStore.update(db, user.id, patch));
  // A suspended user's cookies go first: should the change fail, they sign in again.
  if (patch.status === 'suspended') await cookieRecords.revoke(env, user.id);
  if (richInfo !== undefined) statements.push(richInfoStore.setStatement(db, user.id, richInfo));
  const next = { ...user, ...patch };
  const seen = {
    ...(next.name === user.name ? {} : { name: next.name }),
    ...(next.handle === user.handle || next.handle === null ? {} : { handle: next.handle }),
    ...(next.locale === user.locale ? {} : { locale: next.locale }),
  };
  const effects = patch.status === undefined ? [] : [claimStandingChangedEffect({ user: user.id })];
  if (Object.keys(seen).length > 0) {
    const domain = localDomain(config);
    const contacts =
      'locale' in seen && Object.keys(seen).length === 1 ? [] : await contactsOf(env, { id: user.id, domain });
    const recipients = [user.id, ...contacts.map((u) => u.id)].map((id) => ({ user: id }));
    effects.push(publishEffect(recipients, userEvents.update({ id: user.id, ...seen })));
  }
  try {
    await renaming(env, user.id, user, next, () => commitChange(env, config, { statements, effects }));
  } catch (err) {
    if (isUniqueViolation(err, 'users.handle')) throw new ApiError(brigErrors.handleExists);
    throw err;
  }
  return next;
}
