// Users a SCIM client provisions without an IdP sign in with a password of their own: their
// account waits (pending-invitation) until they register with the code mailed to them.
import type { Config } from '../../../shared/config/index.js';
import { randomToken } from '../../../shared/keys.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { type Db, runBatch } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { teamById } from '../../galley/face.js';
import { type AccountInput, type AccountWrite, createAccount } from '../accounts/create-account.js';
import { sendMail } from '../email/mailer.js';
import type { UserRow } from '../users/user-json.js';
import { emailKeyOf, userStore } from '../users/user-store.js';
import { invitationStore, type InvitationRow } from './invitation-store.js';
import { invitationUrl } from './invitation-urls.js';
import { renaming } from '../users/user-names.js';

type Provisioned = NonNullable<AccountInput['provisioned']>;

/** Creates the pending account and its invitation in one batch, then mails the invitation. */
export async function inviteProvisionedUser(
  env: Env,
  db: Db,
  config: Config,
  input: { name: string; email: string; locale?: string | undefined; provisioned: Provisioned },
): Promise<UserRow> {
  const now = Date.now();
  const code = randomToken(24);
  const { team, role } = input.provisioned;
  const user = await createAccount(env, config, {
    name: input.name,
    email: input.email,
    emailVerified: false,
    locale: input.locale,
    provisioned: {
      ...input.provisioned,
      pendingInvitation: true,
      records: (id) => [
        ...(input.provisioned.records?.(id) ?? []),
        invitationStore.insert(db, {
          id: crypto.randomUUID(),
          team,
          email: input.email,
          role,
          name: input.name,
          locale: input.locale ?? null,
          code,
          createdBy: null,
          createdAt: now,
          expiresAt: now + config.brig.optSettings.setTeamInvitationTimeout * 1000,
          invitee: id,
        }),
      ],
    },
  });
  const teamName = (await teamById(db, team))?.name ?? '';
  await sendMail(
    env,
    config,
    { email: input.email, locale: user.locale },
    { kind: 'team-invitation', inviter: teamName, team: teamName, url: invitationUrl(config, team, code, false) },
  );
  return user;
}

/**
 * Registering with a SCIM invitation activates its pending account with the password chosen;
 * the address counts as verified (the code came to it). 409 `key-exists` if another took it.
 */
export async function claimInvitedAccount(
  env: Env,
  db: Db,
  invitation: InvitationRow & { invitee: string },
  passwordHash: string | undefined,
  write: AccountWrite = (_, change) => runBatch(db, change.statements),
): Promise<UserRow> {
  const account = await userStore.byId(db, invitation.invitee);
  if (account?.status !== 'pending-invitation') throw new ApiError(brigErrors.invalidInvitationCode);
  const patch = {
    status: 'active' as const,
    activated: true,
    email: invitation.email,
    emailKey: emailKeyOf(invitation.email),
    emailUnvalidated: null,
    password: passwordHash ?? null,
  };
  const claimed = { ...account, ...patch };
  try {
    await renaming(env, account.id, account, claimed, () =>
      write(claimed, {
        statements: [userStore.update(db, account.id, patch), invitationStore.remove(db, invitation)],
        effects: [],
      }),
    );
  } catch (err) {
    if (isUniqueViolation(err, 'users.email_key')) throw new ApiError(brigErrors.keyExists);
    throw err;
  }
  return claimed;
}
