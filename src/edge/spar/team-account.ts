// An account spar makes for a team (a SAML sign-in's first time, a SCIM user of an IdP): the
// account and the team queue's member-join are one batch, then its owners and admins are pushed it.
import type { Config } from '../../shared/config/index.js';
import { type AccountInput, createAccount, type UserRow } from '../brig/face.js';
import { database } from '../db/client.js';
import { commitChange, joinChanges } from '../effects/commit-change.js';
import { type MemberJoinNotice, memberJoinNotice } from '../galley/face.js';

export async function createTeamAccount(
  env: Env,
  config: Config,
  input: AccountInput & { provisioned: NonNullable<AccountInput['provisioned']> },
): Promise<UserRow> {
  let joined: MemberJoinNotice | undefined;
  const db = database(env.DB);
  const user = await createAccount(env, config, input, async (row, change) => {
    joined = await memberJoinNotice(db, input.provisioned.team, row.id);
    await commitChange(env, config, joinChanges(change, { statements: [joined.statement], effects: [] }));
  });
  await joined?.push(env, config);
  return user;
}
