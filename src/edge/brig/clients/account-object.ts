import { accountOf } from '../../db/account-of.js';
import { defineEffect } from '../../effects/effect.js';

/**
 * The user's Account object (src/objects/Account.ts): their clients' Proteus prekeys and MLS key
 * packages, their cookies, and whether their packages may be claimed.
 */
export const accountObject = accountOf;

/** Clients were deleted (in D1): what they held for others goes too. */
export const forgetMaterialEffect = defineEffect(
  'forget-client-material',
  async ({ env }, { user, clients }: { user: string; clients: readonly string[] }) => {
    const account = accountObject(env, user);
    for (const client of clients) await account.forgetClient(user, client);
  },
);

/** The account was deleted: everything its clients held goes too. */
export const forgetAccountMaterialEffect = defineEffect(
  'forget-account-material',
  async ({ env }, { user }: { user: string }) => accountObject(env, user).forgetAll(user),
);

/**
 * The user's status or legal hold changed in D1 (suspended, or legal hold requested): the Account
 * object forgets its word that their key packages may be claimed, and asks D1 at the next claim.
 */
export const claimStandingChangedEffect = defineEffect(
  'claim-standing-changed',
  async ({ env }, { user }: { user: string }) => accountObject(env, user).claimStandingChanged(user),
);
