import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { createUser, invitedMember, teamOwner, type TeamOwner, type TestUser } from '../../helpers/users.js';
import { postConnection, postLogin, putSelfHandle } from '../../helpers/endpoints/brig.js';
import { getLegalholdSettings, getTeamFeature } from '../../helpers/endpoints/galley.js';

// The back office (stern): customer support's routes at the root of the internal listener, behind
// basic auth, each going through a component's internal API.

const CREDENTIALS = 'support:correct-horse-battery';
let b: TestBackend;
let owner: TeamOwner;
let user: TestUser;

beforeAll(async () => {
  // A fan-out limit of 2 lets legal hold be refused to a team of three.
  b = await startEditedBackend([['galley.yaml', ['settings', 'maxFanoutSize'], 2]], {
    secrets: { STERN_CREDENTIALS: `ops:other-password\n${CREDENTIALS}` },
  });
  owner = await teamOwner(b.publicUrl, b.internalUrl);
  user = await createUser(b.publicUrl, b.internalUrl);
});
afterAll(async () => b?.stop());

const basic = (creds: string) => ({ authorization: `Basic ${Buffer.from(creds).toString('base64')}` });

function stern(method: string, path: string, body?: unknown, creds = CREDENTIALS) {
  return call(b.internalUrl, path, {
    method,
    headers: { ...basic(creds), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('the back office', () => {
  it('asks for basic auth, and is not there at all without credentials configured', async () => {
    const none = await call(b.internalUrl, `/users/by-ids?ids=${user.id}`);
    expect(none).toMatchObject({ status: 401, body: wireError(401, 'unauthorized') });
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="stern"');
    expect((await stern('GET', `/users/by-ids?ids=${user.id}`, undefined, 'support:wrong')).status).toBe(401);
    expect((await stern('GET', `/users/by-ids?ids=${user.id}`, undefined, 'ops:other-password')).status).toBe(200);
    // The public ingress has no back office (there the path is v0's GET /users/{uid}, and `by-ids` no
    // user id), and a backend without STERN_CREDENTIALS none either.
    const publicAnswer = await call(b.publicUrl, `/users/by-ids?ids=${user.id}`, { headers: basic(CREDENTIALS) });
    expect(publicAnswer.status).toBe(400);
    const plain = sharedBackend();
    const off = await call(plain.internalUrl, `/users/by-ids?ids=${user.id}`, { headers: basic(CREDENTIALS) });
    expect(off).toMatchObject({ status: 404, body: wireError(404, 'no-endpoint') });
  });

  it('finds accounts by email, ids and handles, with their status', async () => {
    expect((await putSelfHandle(b.publicUrl, user.token, { handle: `h${user.id.slice(0, 8)}` })).status).toBe(200);
    const byEmail = await stern('GET', `/users/by-email?email=${encodeURIComponent(owner.email)}`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body).toEqual([expect.objectContaining({ id: owner.id, team: owner.team, status: 'active' })]);
    const byIds = await stern('GET', `/users/by-ids?ids=${owner.id},${user.id}`);
    expect(byIds.body.map((u: { id: string }) => u.id).sort()).toEqual([owner.id, user.id].sort());
    const byHandles = await stern('GET', `/users/by-handles?handles=h${user.id.slice(0, 8)}`);
    expect(byHandles.body).toEqual([expect.objectContaining({ id: user.id, handle: `h${user.id.slice(0, 8)}` })]);
    expect((await stern('GET', '/users/by-email?email=nobody%40example.com')).body).toEqual([]);
  });

  it('suspends an account (its sessions end, it cannot log in) and lets it back', async () => {
    const u = await createUser(b.publicUrl, b.internalUrl);
    expect((await stern('POST', `/users/${u.id}/suspend`)).status).toBe(200);
    expect((await stern('GET', `/users/by-ids?ids=${u.id}`)).body[0].status).toBe('suspended');
    const login = () => postLogin(b.publicUrl, { email: u.email, password: u.password });
    expect((await login()).status).toBe(403);
    expect((await stern('POST', `/users/${u.id}/unsuspend`)).status).toBe(200);
    expect((await login()).status).toBe(200);
    expect((await stern('POST', '/users/00000000-0000-4000-8000-000000000000/suspend')).status).toBe(404);
  });

  it("reads and sets a team's features: status only, with wire's ttl, a whole feature, the lock", async () => {
    const path = (f: string) => `/teams/${owner.team}/features/${f}`;
    // Locked by default (config/galley.yaml): the team's own setting counts once unlocked.
    expect((await stern('PUT', `${path('conferenceCalling')}/lockOrUnlock?lock-status=unlocked`)).status).toBe(200);
    expect((await stern('PUT', `${path('conferenceCalling')}?status=disabled&ttl=unlimited`)).status).toBe(200);
    expect((await stern('GET', path('conferenceCalling'))).body).toMatchObject({ status: 'disabled' });
    const teamView = await getTeamFeature(b.publicUrl, owner.token, owner.team, 'conferenceCalling');
    expect(teamView.body.status).toBe('disabled');

    expect((await stern('PUT', path('fileSharing'))).status).toBe(400); // status-only needs ?status=
    const appLock = { status: 'enabled', config: { enforceAppLock: true, inactivityTimeoutSecs: 120 } };
    expect((await stern('PUT', path('appLock'), appLock)).status).toBe(200);
    expect((await stern('GET', path('appLock'))).body).toMatchObject(appLock);

    expect((await stern('PUT', `${path('fileSharing')}/lockOrUnlock?lock-status=locked`)).status).toBe(200);
    expect((await stern('GET', path('fileSharing'))).body.lockStatus).toBe('locked');
    expect((await stern('PUT', `${path('fileSharing')}/lockOrUnlock?lock-status=unlocked`)).status).toBe(200);
    expect((await stern('GET', path('fileSharing'))).body.lockStatus).toBe('unlocked');
    const unknown = await stern('GET', `/teams/${owner.team}/features/noSuchFeature`);
    expect(unknown).toMatchObject({ status: 400, body: wireError(400, 'bad-request') }); // galley's own answer
  });

  it('turns legal hold on for a team, as the seed lets support do', async () => {
    const path = `/teams/${owner.team}/features/legalhold`;
    expect((await stern('PUT', `${path}?status=enabled`)).status).toBe(200);
    const seen = await getLegalholdSettings(b.publicUrl, owner.token, owner.team);
    expect(seen.body).toEqual({ status: 'not_configured' });
    expect((await stern('PUT', `${path}?status=disabled`)).status).toBe(200);
    const large = await teamOwner(b.publicUrl, b.internalUrl);
    for (let i = 0; i < 2; i++) await invitedMember(b.publicUrl, large);
    const refused = await stern('PUT', `/teams/${large.team}/features/legalhold?status=enabled`);
    expect(refused.body).toMatchObject(wireError(403, 'too-large-team-for-legalhold'));
  });

  it('shows a team, its admins, the team of an email; suspends and deletes teams', async () => {
    const team = await stern('GET', `/teams/${owner.team}`);
    expect(team.status, team.text).toBe(200);
    expect(team.body.info).toMatchObject({ team: { id: owner.team }, status: 'active' });
    expect(team.body.members).toEqual([
      expect.objectContaining({ user: owner.id, can_update_billing: true, can_view_billing: true }),
    ]);
    const byEmail = await stern('GET', `/teams?email=${encodeURIComponent(owner.email)}`);
    expect(byEmail.body).toEqual(team.body);
    expect((await stern('GET', `/teams?email=${encodeURIComponent(user.email)}`)).body).toMatchObject(
      wireError(404, 'no-binding-team'),
    );
    const admins = await stern('GET', `/teams/${owner.team}/admins`);
    expect(admins.body).toMatchObject({ owners: [{ user: owner.id }], admins: [], total_members: 1 });

    expect((await stern('PUT', `/teams/${owner.team}/suspend`)).status).toBe(200);
    expect((await stern('GET', `/teams/${owner.team}`)).body.info.status).toBe('suspended');
    expect((await stern('PUT', `/teams/${owner.team}/unsuspend`)).status).toBe(200);
    expect((await stern('GET', `/teams/${owner.team}`)).body.info.status).toBe('active');

    const doomed = await teamOwner(b.publicUrl, b.internalUrl);
    expect((await stern('DELETE', `/teams/${doomed.team}`)).body).toMatchObject(wireError(400, 'bad-request'));
    const wrong = await stern('DELETE', `/teams/${doomed.team}?email=${encodeURIComponent(owner.email)}`);
    expect(wrong.body).toMatchObject(wireError(404, 'binding-team-mismatch'));
    const gone = await stern('DELETE', `/teams/${doomed.team}?email=${encodeURIComponent(doomed.email)}`);
    expect(gone.status, gone.text).toBe(202);
    expect((await stern('GET', `/teams/${doomed.team}`)).body).toMatchObject(wireError(404, 'no-team'));
    expect((await stern('GET', `/users/by-ids?ids=${doomed.id}`)).body).toEqual([]);
  });

  it('shows what an account holds and counts its connections; deletes it when the email matches', async () => {
    const a = await createUser(b.publicUrl, b.internalUrl);
    expect((await postConnection(b.publicUrl, a.token, { domain: 'example.com', id: user.id })).status).toBe(201);
    const counts = await stern('GET', `/users/${a.id}/connections`);
    expect(counts.body).toMatchObject({ ucgSent: 1, ucgAccepted: 0, ucgTotal: 1 });
    const info = await stern('GET', `/users/${a.id}/meta-info?max_conversations=5`);
    expect(info.status, info.text).toBe(200);
    expect(info.body.account).toMatchObject({ id: a.id, status: 'active' });
    expect(info.body.connections).toEqual([expect.objectContaining({ to: user.id, status: 'sent' })]);
    expect(info.body.clients).toEqual([]);
    expect(info.body.cookies.cookies.length).toBeGreaterThan(0);
    expect(info.body.conversations.found.length).toBeGreaterThan(0);

    const other = await stern('DELETE', `/users/${a.id}?email=${encodeURIComponent(user.email)}`);
    expect(other.body).toMatchObject(wireError(400, 'match-error'));
    const missing = await stern('DELETE', `/users/${a.id}?email=nobody%40example.com`);
    expect(missing.body).toMatchObject(wireError(404, 'not-found'));
    expect((await stern('DELETE', `/users/${a.id}?email=${encodeURIComponent(a.email)}`)).status).toBe(202);
    expect((await stern('GET', `/users/by-ids?ids=${a.id}`)).body).toEqual([]);
    expect((await postLogin(b.publicUrl, { email: a.email, password: a.password })).status).toBe(403);
  });
});
