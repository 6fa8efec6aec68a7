import { describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { invitationCode } from '../helpers/mailbox.js';
import { uniqueEmail } from '../helpers/users.js';
import { addClient } from '../helpers/clients.js';
import {
  as,
  createTeam,
  createTeamMember,
  expectError,
  expectStatus,
  internal,
  ownBackend,
  PASSWORD,
  qid,
  randomUser,
  type User,
} from './lib/identity-users.js';

const own = ownBackend();

const postInvitation = (owner: User, email: string, version = 8) =>
  as(owner, version).post(`/teams/${owner.team}/invitations`, { email });
const accept = (u: User, code: string, password?: string) =>
  as(u).post('/teams/invitations/accept', { code, ...(password === undefined ? {} : { password }) });

/** wire's ephemeralUser: a user registered with a name only, logged in through its cookie. */
async function ephemeralUser(): Promise<User> {
  const r = await call(own.publicUrl, '/v8/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '127.0.0.42' },
    body: JSON.stringify({ name: 'guest' }),
  });
  expectStatus(r, 201);
  const cookie = /zuid=[^;]+/.exec(r.headers.get('set-cookie') ?? '')![0];
  const access = await call(own.publicUrl, '/v8/access', { method: 'POST', headers: { cookie } });
  expectStatus(access, 200);
  return {
    id: r.body.id,
    domain: own.domain,
    name: 'guest',
    email: '',
    password: '',
    token: access.body.access_token,
    cookie,
    backend: own,
  };
}

describe('Teams', () => {
  it('Teams.testInvitePersonalUserToTeamMultipleInvitations', async () => {
    const [{ owner, tid }, { owner: owner2 }] = await Promise.all([createTeam(own), createTeam(own)]);
    const user = await randomUser(own);
    expectStatus(await postInvitation(owner, user.email), 201);
    const code = await invitationCode(own.publicUrl, user.email);
    expectStatus(await postInvitation(owner2, user.email), 201);
    const code2 = await invitationCode(own.publicUrl, user.email);
    expectStatus(await accept(user, code, PASSWORD), 200);
    expect((await as(user).get('/self')).body.team).toBe(tid);
    expectError(await accept(user, code2, PASSWORD), 403, 'cannot-join-multiple-teams');
    expect((await as(user).get('/self')).body.team).toBe(tid);
    expectStatus(await accept(user, code, PASSWORD), 400);
  });

  it('Teams.testInvitePersonalUserToTeamLegacy', async () => {
    const { owner, tid } = await createTeam(own);
    const user = await randomUser(own);
    expectError(await postInvitation(owner, user.email, 6), 409, 'email-exists');
    const email = uniqueEmail();
    const r = await postInvitation(owner, email, 6);
    expectStatus(r, 201);
    expect(r.body).toMatchObject({ email, team: tid });
  });

  it('Teams.testInvitationTypesAreDistinct[OwnDomain]', async () => {
    const { owner } = await createTeam(own);
    const user = await randomUser(own);
    expectStatus(await postInvitation(owner, user.email), 201);
    const code = await invitationCode(own.publicUrl, user.email);
    const r = await as(own).post('/register', {
      name: user.email,
      email: user.email,
      password: PASSWORD,
      team_code: code,
    });
    expectStatus(r, 409);
  });

  it('Teams.testTeamUserCannotBeInvited', async () => {
    const [{ members }, { owner: owner2 }] = await Promise.all([createTeam(own, 2), createTeam(own)]);
    expectStatus(await postInvitation(owner2, members[0]!.email), 409);
  });

  it('Teams.testUpgradePersonalToTeam', async () => {
    const alice = await randomUser(own);
    const upgraded = await as(alice).post('/upgrade-personal-to-team', { name: 'wonderland', icon: 'default' });
    expectStatus(upgraded, 200);
    expect(upgraded.body.team_name).toBe('wonderland');
    const tid = upgraded.body.team_id;
    expect((await as(alice).get(`/users/${own.domain}/${alice.id}`)).body.team).toBe(tid);
    expect((await as(alice).get(`/teams/${tid}`)).body.name).toBe('wonderland');
    const iTeam = await internal(own).get(`/i/teams/${tid}`);
    expectStatus(iTeam, 200);
    expect(iTeam.body).toMatchObject({ team: { name: 'wonderland' }, status: 'active' });
    const members = await as(alice).get(`/teams/${tid}/members`);
    expectStatus(members, 200);
    expect(members.body.members).toHaveLength(1);
    const [ownerMember] = members.body.members;
    expect(ownerMember.user).toBe(alice.id);
    expect(ownerMember.created_at ?? null).toBeNull();
    expect(ownerMember.created_by ?? null).toBeNull();
    const teamAlice = { ...alice, team: tid };
    const mem = await createTeamMember(teamAlice);
    expectStatus(await internal(own).get('/i/index/refresh'), 200);
    const search = await as(teamAlice).get(`/teams/${tid}/search`);
    expectStatus(search, 200);
    expect(new Set(search.body.documents.map((d: any) => d.id))).toEqual(new Set([alice.id, mem.id]));
  });

  it('Teams.testUpgradePersonalToTeamAlreadyInATeam', async () => {
    const { owner } = await createTeam(own);
    expectError(
      await as(owner).post('/upgrade-personal-to-team', { name: 'wonderland', icon: 'default' }),
      403,
      'user-already-in-a-team',
    );
  });

  it('Teams.testUpgradeGuestToTeamShouldFail', async () => {
    const guest = await ephemeralUser();
    expectStatus(await as(guest).post('/upgrade-personal-to-team', { name: 'wonderland', icon: 'default' }), 404);
  });

  it('Teams.testTeamMemberCsvExport', async () => {
    const { owner, tid, members } = await createTeam(own, 5);
    const everyone = [owner, ...members];
    const expected = new Map<string, { user: User; handle: string; role: string; clients: number }>();
    for (const [i, m] of everyone.entries()) {
      const clients = [0, 1, 2][i] ?? 0;
      const handle = `h${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
      expectStatus(await as(m).put('/self/handle', { handle }), 200);
      const ids: string[] = [];
      for (let n = 0; n < clients; n++) ids.push(await addClient(own.publicUrl, m, { password: m.password }));
      if (ids[0] !== undefined) await as(m).get(`/notifications?client=${ids[0]}`);
      expectStatus(await internal(own).put(`/i/users/${m.id}/sso-id`, { scim_external_id: 'foo' }), 200);
      expected.set(m.id, { user: m, handle, role: m === owner ? 'owner' : 'member', clients });
    }
    const r = await as(owner).get(`/teams/${tid}/members/csv`);
    expectStatus(r, 200);
    const rows = r.text.trim().split('\n').slice(1);
    expect(rows).toHaveLength(5);
    const today = new Date().toISOString().slice(0, 10);
    const unquote = (s: string) => {
      const t = JSON.parse(s) as string;
      return t.startsWith("'") ? t.slice(1) : t;
    };
    const ownerHandle = expected.get(owner.id)!.handle;
    for (const row of rows) {
      const cols = row.split(',');
      const m = expected.get(unquote(cols[11]!))!;
      expect(unquote(cols[0]!)).toBe(m.user.name);
      expect(unquote(cols[1]!)).toBe(m.handle);
      expect(unquote(cols[2]!)).toBe(m.user.email);
      expect(unquote(cols[3]!)).toBe(m.role);
      if (m.role !== 'owner') {
        expect(unquote(cols[4]!).slice(0, 10)).toBe(today);
        expect(unquote(cols[5]!)).toBe(ownerHandle);
      }
      expect(unquote(cols[7]!)).toBe('wire');
      expect(unquote(cols[9]!)).toBe('foo');
      expect(unquote(cols[12]!)).toBe(String(m.clients));
      if (m.clients > 0) expect(unquote(cols[13]!)).not.toBe('');
      else expect(unquote(cols[13]!)).toBe('');
      expect(unquote(cols[14]!)).toBe('active');
    }
  });

  // needs wire's password rate limit for users (burst 5, one a minute); the shared backend's is generous
  it.skip('Teams.testDeleteTeamUserRatelimitingIsPropagated', async () => {
    const { owner, tid, members } = await createTeam(own, 10);
    const statuses = new Set<number>();
    for (const m of members)
      statuses.add((await as(owner).del(`/teams/${tid}/members/${m.id}`, { password: PASSWORD })).status);
    expect(statuses).toEqual(new Set([202, 429]));
  });

  // not ported as is: wire sends this GET with a JSON body, which fetch cannot send; the route is missing too
  it.skip('Teams.testSelectTeamMembersByIds', async () => {
    const { owner, tid, members } = await createTeam(own, 5);
    const ids = [owner, ...members].map((u) => u.id);
    const r = await call(own.internalUrl, `/i/teams/${tid}/members/by-ids`, {
      method: 'GET',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids }),
    });
    expectStatus(r, 200);
    expect(r.body.members).toHaveLength(5);
  });

  it('Teams.testListUsersEmailVisibility', async () => {
    // the shipped configuration has setEmailVisibility: visible_to_self, as the scenario sets
    const { owner, members } = await createTeam(own, 5);
    const r = await as(owner).post('/list-users', { qualified_ids: members.map(qid) });
    expectStatus(r, 200);
    expect(new Set(r.body.found.map((u: any) => u.email))).toEqual(new Set(members.map((m) => m.email)));
  });
});

describe('TeamSettings', () => {
  const appLock = {
    status: 'disabled',
    ttl: 'unlimited',
    config: { enforceAppLock: false, inactivityTimeoutSecs: 60 },
  };
  const properties = { icon: 'default', icon_key: 'default', name: 'test', splash_screen: 'default' };
  const scenario = (put: (tid: string, u: User) => ReturnType<ReturnType<typeof as>['put']>) => async () => {
    const { owner, tid, members } = await createTeam(own, 2);
    const partner = await createTeamMember(owner, { role: 'partner' });
    expectStatus(await put(tid, owner), 200);
    expectError(await put(tid, members[0]!), 403, 'operation-denied');
    expectError(await put(tid, partner), 403, 'operation-denied');
    const { owner: ownerB } = await createTeam(own);
    expectError(await put(tid, ownerB), 403, 'no-team-member');
  };
  it(
    'TeamSettings.testTeamSettingsUpdate',
    scenario((tid, u) => as(u).put(`/teams/${tid}/features/appLock`, appLock)),
  );
  it(
    'TeamSettings.testTeamPropertiesUpdate',
    scenario((tid, u) => as(u).put(`/teams/${tid}`, properties)),
  );
});
