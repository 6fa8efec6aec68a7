import { describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { uniqueEmail } from '../helpers/users.js';
import {
  as,
  createTeam,
  createTeamMember,
  expectError,
  expectStatus,
  internal,
  ownBackend,
  randomUser,
  type User,
} from './lib/identity-users.js';

const own = ownBackend();
const refreshIndex = async () => expectStatus(await internal(own).get('/i/index/refresh'), 200);
const searchContacts = (u: User, q: string, domain = own.domain) =>
  as(u).get(`/search/contacts?q=${encodeURIComponent(q)}&domain=${domain}`);
const foundIds = async (u: User, q: string) => {
  const r = await searchContacts(u, q);
  expectStatus(r, 200);
  return r.body.documents.map((d: any) => d.id);
};
const searchTeam = (u: User, params: Record<string, string> = {}) =>
  as(u).get(`/teams/${u.team}/search?${new URLSearchParams(params)}`);
const teamMemberIds = async (viewer: User, tid: string) => {
  const r = await as(viewer).get(`/teams/${tid}/members`);
  expectStatus(r, 200);
  return new Set(r.body.members.map((m: any) => m.user));
};
const PERMISSIONS = { partner: 1025, member: 1587, admin: 5951, owner: 8191 } as const;
const setRole = (owner: User, member: User, role: keyof typeof PERMISSIONS) =>
  as(owner).put(`/teams/${owner.team}/members`, {
    member: { user: member.id, permissions: { self: PERMISSIONS[role], copy: PERMISSIONS[role] } },
  });

describe('Search', () => {
  it('Search.testSearchContactForExternalUsers', async () => {
    const owner = await randomUser(own, { team: true });
    const tid = owner.team!;
    const partner = await createTeamMember(owner, { role: 'partner' });
    const [tm1, tm2] = await Promise.all([createTeamMember(owner), createTeamMember(owner)]);
    expectStatus(await searchContacts(tm1, owner.name), 200);
    expectStatus(await searchContacts(partner, owner.name), 403);
    expect(await teamMemberIds(tm1, tid)).toEqual(new Set([owner.id, tm1.id, tm2.id, partner.id]));
    expect(await teamMemberIds(partner, tid)).toEqual(new Set([owner.id, partner.id]));
    const conv = await as(owner).post('/conversations', {
      qualified_users: [
        { id: tm1.id, domain: own.domain },
        { id: partner.id, domain: own.domain },
      ],
      team: { teamid: tid, managed: false },
    });
    expectStatus(conv, 201);
    expect(await teamMemberIds(partner, tid)).toEqual(new Set([owner.id, partner.id]));
  });

  it('Search.testEphemeralUsersSearch', async () => {
    const eph = await call(own.publicUrl, '/v8/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '127.0.0.42' },
      body: JSON.stringify({ name: `ephemeral ${uniqueEmail()}` }),
    });
    expectStatus(eph, 201);
    const access = await call(own.publicUrl, '/v8/access', {
      method: 'POST',
      headers: { cookie: /zuid=[^;]+/.exec(eph.headers.get('set-cookie') ?? '')![0] },
    });
    expectStatus(access, 200);
    const [user1, user2] = await Promise.all([randomUser(own), randomUser(own)]);
    await refreshIndex();
    expect(await foundIds(user1, user2.name)).toEqual([user2.id]);
    const asEphemeral = { ...user1, token: access.body.access_token as string };
    expectError(await searchContacts(asEphemeral, user2.name), 403, 'insufficient-permissions');
  });

  it('Search.testSearchForTeamMembersWithRoles', async () => {
    const { owner, members } = await createTeam(own, 5);
    const [m1, m2, m3, m4] = members as [User, User, User, User];
    await refreshIndex();
    const all = await searchTeam(owner);
    expectStatus(all, 200);
    expect(all.body.documents).toHaveLength(5);
    for (const doc of all.body.documents) expect(doc.role).toBe(doc.id === owner.id ? 'owner' : 'member');
    expectStatus(await setRole(owner, m1, 'owner'), 200);
    expectStatus(await setRole(owner, m2, 'member'), 200);
    expectStatus(await setRole(owner, m3, 'partner'), 200);
    expectStatus(await setRole(owner, m4, 'admin'), 200);
    const expected: Array<[string, string[]]> = [
      ['owner', [owner.id, m1.id]],
      ['admin', [m4.id]],
      ['member', [m2.id]],
      ['partner', [m3.id]],
    ];
    const pairs = (docs: any[]) => new Set(docs.map((d) => `${d.id}:${d.role}`));
    await refreshIndex();
    const after = await searchTeam(owner);
    expectStatus(after, 200);
    expect(pairs(after.body.documents)).toEqual(
      new Set(expected.flatMap(([role, ids]) => ids.map((id) => `${id}:${role}`))),
    );
    for (const [role, ids] of expected) {
      const r = await searchTeam(owner, { frole: role });
      expectStatus(r, 200);
      expect(pairs(r.body.documents)).toEqual(new Set(ids.map((id) => `${id}:${role}`)));
    }
    const some = await searchTeam(owner, { frole: 'owner,admin,partner' });
    expectStatus(some, 200);
    expect(some.body.documents).toHaveLength(4);
    for (const doc of some.body.documents) expect(doc.role).not.toBe('member');
  });

  it('Search.testTeamSearchEmailFilter', async () => {
    const { owner, members } = await createTeam(own, 2);
    const mem = members[0]!;
    const update = await call(own.publicUrl, '/v8/access/self/email', {
      method: 'PUT',
      headers: { cookie: mem.cookie, authorization: `Bearer ${mem.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail() }),
    });
    expect(update.status, update.text).toBeLessThan(300);
    await refreshIndex();
    const ids = async (params: Record<string, string>) => {
      const r = await searchTeam(owner, { size: '100', q: '', ...params });
      expectStatus(r, 200);
      return new Set(r.body.documents.map((d: any) => d.id));
    };
    expect(await ids({ email: 'verified' })).toEqual(new Set([owner.id]));
    expect(await ids({ email: 'unverified' })).toEqual(new Set([mem.id]));
    expect(await ids({})).toEqual(new Set([owner.id, mem.id]));
  });

  // API v12 and later: `POST /users/{uid}/searchable` is declared `From 'V12`; this backend serves v0–v9.
  it.skip('Search.testUserSearchable', async () => {
    const { owner, tid, members } = await createTeam(own, 4);
    const [u1, u2, u3] = members as [User, User, User];
    const admin = await createTeamMember(owner, { role: 'admin' });
    const everyone = [owner, u1, admin, u2, u3];
    for (const u of everyone) expect((await as(u).get('/self')).body.searchable).toBe(true);
    const setSearchable = (by: User, uid: string, set: boolean) => as(by).post(`/users/${uid}/searchable`, { set });
    expectError(await setSearchable(u1, u1.id, false), 403, 'insufficient-permissions');
    expect((await as(u1).get(`/users/${own.domain}/${u1.id}`)).body.searchable).toBe(true);
    expectStatus(await setSearchable(admin, u1.id, false), 200);
    expect((await as(u1).get(`/users/${own.domain}/${u1.id}`)).body.searchable).toBe(false);
    expectStatus(await setSearchable(owner, u1.id, true), 200);
    expectStatus(await setSearchable(owner, u1.id, false), 200);
    await refreshIndex();
    expect(await foundIds(u1, u2.name)).toContain(u2.id);
    expectStatus(await setSearchable(owner, u3.id, false), 200);
    await refreshIndex();
    expect(await foundIds(u1, u3.name)).not.toContain(u3.id);
    expect(await foundIds(admin, u3.name)).not.toContain(u3.id);
    expect(await foundIds(owner, u3.name)).not.toContain(u3.id);
    const u3handle = `h${crypto.randomUUID().slice(0, 12)}`;
    expectStatus(await as(u3).put('/self/handle', { handle: u3handle }), 200);
    expectStatus(await as(u2).head(`/handles/${u3handle}`), 200);
    const u2handle = `h${crypto.randomUUID().slice(0, 12)}`;
    expectStatus(await as(u2).put('/self/handle', { handle: u2handle }), 200);
    const free = await as(u1).post('/handles', { handles: [u3handle, u2handle] });
    expectStatus(free, 200);
    expect(free.body).toEqual([]);
    expect(await foundIds(u1, u3handle)).not.toContain(u3.id);
    const searchable = new Set([owner.id, admin.id, u2.id]);
    expect(await teamMemberIds(admin, tid)).toEqual(searchable);
    expect(await teamMemberIds(u1, tid)).toEqual(searchable);
    const teamIds = async (params: Record<string, string>) => {
      const r = await searchTeam(admin, params);
      expectStatus(r, 200);
      return new Set(r.body.documents.map((d: any) => d.id));
    };
    expect(await teamIds({})).toEqual(new Set(everyone.map((u) => u.id)));
    expect(await teamIds({ searchable: 'false' })).toEqual(new Set([u1.id, u3.id]));
    expect(await teamIds({ searchable: 'true' })).toEqual(searchable);
  });

  it('Search.testSuspendedUserSearch', async () => {
    const [searcher, searchee] = await Promise.all([randomUser(own), randomUser(own)]);
    await refreshIndex();
    expect(await foundIds(searcher, searchee.name)).toContain(searchee.id);
    expectStatus(await internal(own).put(`/i/users/${searchee.id}/status`, { status: 'suspended' }), 200);
    const suspended = await internal(own).get(`/i/users/${searchee.id}/status`);
    expectStatus(suspended, 200);
    expect(suspended.body.status).toBe('suspended');
    await refreshIndex();
    expect(await foundIds(searcher, searchee.name)).not.toContain(searchee.id);
    expectStatus(await internal(own).put(`/i/users/${searchee.id}/status`, { status: 'active' }), 200);
    expect((await internal(own).get(`/i/users/${searchee.id}/status`)).body.status).toBe('active');
    await refreshIndex();
    expect(await foundIds(searcher, searchee.name)).toContain(searchee.id);
  });
});
