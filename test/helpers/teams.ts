import { expect } from 'vitest';
import { invitationCode } from './mailbox.js';
import { api, login, uniqueEmail, type TeamOwner, type TestUser } from './users.js';

export type TeamRoleName = 'owner' | 'admin' | 'member' | 'partner';

/** Invites a new address and registers it with the mailed code: a member of the owner's team. */
export async function invitedMember(pub: string, owner: TeamOwner, role: TeamRoleName = 'member'): Promise<TestUser> {
  const email = uniqueEmail(role);
  const password = 'secret-password';
  expect((await api(pub, owner.token).post(`/v8/teams/${owner.team}/invitations`, { email, role })).status).toBe(201);
  const r = await api(pub).post('/v8/register', { name: role, email, password, team_code: await invitationCode(pub, email) });
  expect(r.status, r.text).toBe(201);
  return { id: r.body.id, name: role, email, password, ...(await login(pub, email, password)) };
}
