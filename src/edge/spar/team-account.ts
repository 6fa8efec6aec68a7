// An account spar makes for a team (a SAML sign-in's first time, a SCIM user of an IdP): the
// account and the team queue's member-join are one batch, then its owners and admins are pushed it.
import type { Config } from '../../shared/config/index.js';
import { type AccountInput, createAccount, type UserRow } from '../brig/face.js';
import { type Db, runBatch } from '../db/client.js';
import { type MemberJoinNotice, memberJoinNotice } from '../galley/face.js';

export async function createTeamAccount(
  env: Env,
  db: Db,
  config: Config,
  input: AccountInput & { provisioned: NonNullable<AccountInput['provisioned']> },
): Promise<UserRow> {
  let joined: MemberJoinNotice | undefined;
  const user = await createAccount(db, config, input, async (row, statements) => {
    joined = await memberJoinNotice(db, input.provisioned.team, row.id);
    await runBatch(db, [...statements, joined.statement]);
  });
  await joined?.push(env, config);
  return user;
}
