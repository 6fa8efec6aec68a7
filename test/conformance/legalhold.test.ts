import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { startLegalholdService, type LegalholdService } from '../helpers/legalhold-service.js';
import { proteusKeys } from '../helpers/prekeys.js';
import { putFeatureInternal } from './lib/identity-features.js';
import { eventually } from './lib/identity-federation.js';
import {
  as,
  awaitEvent,
  connectUsers,
  createTeam,
  eventsOf,
  expectError,
  expectStatus,
  ownBackend,
  PASSWORD,
  randomUser,
  type User,
  userSocket,
} from './lib/identity-users.js';

/**
 * wire's Test.LegalHold with explicit consent: legalhold disabled-by-default (the shipped
 * configuration), a team turns it on and each member consents. The service speaks API v0 or v1.
 */
const own = ownBackend();
const VERSIONS = ['V0', 'V1'] as const;
type V = (typeof VERSIONS)[number];

const services: LegalholdService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.stop()));
});
async function lhService(v: V): Promise<LegalholdService> {
  const s = await startLegalholdService();
  s.versions = v === 'V0' ? undefined : [0, 1];
  services.push(s);
  return s;
}
const settingsOf = (s: LegalholdService) => ({
  base_url: s.baseUrl,
  public_key: s.publicKeyPem,
  auth_token: s.authToken,
});

const lh = (u: User, tid: string) => ({
  settings: () => as(u).get(`/teams/${tid}/legalhold/settings`),
  postSettings: (s: LegalholdService) => as(u).post(`/teams/${tid}/legalhold/settings`, settingsOf(s)),
  consent: (password = PASSWORD) => as(u).post(`/teams/${tid}/legalhold/consent`, { password }),
  request: (target: User) => as(u).post(`/teams/${tid}/legalhold/${target.id}`),
  approve: (target: User, password = PASSWORD) =>
    as(u).put(`/teams/${tid}/legalhold/${target.id}/approve`, { password }),
  disable: (target: User, password = PASSWORD) => as(u).del(`/teams/${tid}/legalhold/${target.id}`, { password }),
  status: (target: User) => as(u).get(`/teams/${tid}/legalhold/${target.id}`),
});
/** wire's whitelistOrEnableLHForTeam with explicit consent: the feature on through galley's internal API. */
const enableForTeam = async (tid: string) =>
  expectStatus(await putFeatureInternal(own, tid, 'legalhold', { status: 'enabled' }), 200);
const statusOf = async (admin: User, tid: string, target: User) => {
  const r = await lh(admin, tid).status(target);
  expectStatus(r, 200);
  return r.body;
};
const lhClientOf = async (u: User) => {
  const r = await as(u).get(`/users/${u.domain}/${u.id}/clients`);
  expectStatus(r, 200);
  return r.body.filter((c: any) => c.class === 'legalhold');
};
const addClient = async (u: User) => {
  const r = await as(u).post('/clients', { type: 'permanent', ...(await proteusKeys(1)), password: u.password });
  expectStatus(r, 201);
  return r.body.id as string;
};
const clientEvents = async (u: User, client: string, type: string) => {
  const r = await as(u).get(`/notifications?client=${client}&size=1000`);
  return r.body.notifications.flatMap((n: any) => n.payload).filter((e: any) => e.type === type);
};

/** wire's setUpLHDevice: feature on, service registered, consent, request, approval. */
async function setUpDevice(alice: User, tid: string, bob: User, s: LegalholdService) {
  await enableForTeam(tid);
  expectStatus(await lh(alice, tid).postSettings(s), 201);
  expectStatus(await lh(bob, tid).consent(), 201);
  expectStatus(await lh(alice, tid).request(bob), 201);
  expectStatus(await lh(bob, tid).approve(bob), 200);
}

describe('LegalHold (explicit consent)', () => {
  for (const v of VERSIONS)
    it(`LegalHold.testLHGetAndUpdateSettings[consent=Explicit][v=${v}]`, async () => {
      const s = await lhService(v);
      const { owner, tid, members } = await createTeam(own, 2);
      const alice = members[0]!;
      const stranger = await randomUser(own);
      const works = async (u: User, status: string) => {
        const r = await lh(u, tid).settings();
        expectStatus(r, 200);
        expect(r.body.status).toBe(status);
      };
      expectError(await lh(stranger, tid).settings(), 403, 'no-team-member');
      await works(owner, 'disabled');
      await works(alice, 'disabled');
      await enableForTeam(tid);
      expectError(await lh(stranger, tid).settings(), 403, 'no-team-member');
      await works(owner, 'not_configured');
      await works(alice, 'not_configured');
      expectStatus(await lh(owner, tid).postSettings(s), 201);
      const r = await lh(alice, tid).settings();
      expectStatus(r, 200);
      expect(r.body.label).toBeUndefined();
      expect(r.body.settings).toMatchObject({ auth_token: s.authToken, base_url: s.baseUrl, team_id: tid });
      expect(r.body.settings.public_key.trim()).toBe(s.publicKeyPem.trim());
      expect(r.body.settings.fingerprint.length).toBeGreaterThan(0);
    });

  for (const v of VERSIONS)
    it(`LegalHold.testLHRequestDevice[consent=Explicit][v=${v}]`, async () => {
      const { owner: alice, tid, members } = await createTeam(own, 2);
      const bob = members[0]!;
      expectError(await lh(alice, tid).request(bob), 403, 'legalhold-not-enabled');
      const s = await lhService(v);
      for (const requester of [alice, bob]) {
        expectError(await lh(requester, tid).request(bob), 403, 'legalhold-not-enabled');
        expect((await statusOf(alice, tid, bob)).status).toBe('no_consent');
      }
      await enableForTeam(tid);
      expect((await lh(alice, tid).postSettings(s)).status).toBeLessThan(300);
      expect((await statusOf(alice, tid, bob)).status).toBe('no_consent');
      expectStatus(await lh(bob, tid).consent(), 201);
      expectStatus(await lh(alice, tid).request(bob), 201);
      expect((await statusOf(alice, tid, bob)).status).toBe('pending');
      expectStatus(await lh(alice, tid).request(bob), 204);
      expect((await statusOf(alice, tid, bob)).status).toBe('pending');
      // each request asked the service anew (wire's mock answers the same keys each time)
      const lastPrekeys = s.initiated.map((answer) => answer.last_prekey);
      for (let i = 0; i < 2; i++) {
        const client = await addClient(bob);
        const events = await clientEvents(bob, client, 'user.legalhold-request');
        expect(events.map((e: any) => ({ id: e.id, last_prekey: e.last_prekey }))).toEqual(
          lastPrekeys.map((last_prekey) => ({ id: bob.id, last_prekey })),
        );
      }
    });

  it('LegalHold.testLHApproveDevice[consent=Explicit]', async () => {
    const { owner: alice, tid, members } = await createTeam(own, 3);
    const [bob, charlie] = members as [User, User];
    const ollie = await randomUser(own);
    await connectUsers(ollie, alice);
    const sandy = await randomUser(own);
    await enableForTeam(tid);
    expectError(await lh(bob, tid).approve(bob), 412, 'legalhold-not-pending');
    const s = await lhService('V0');
    expectStatus(await lh(alice, tid).postSettings(s), 201);
    expectStatus(await lh(bob, tid).consent(), 201);
    expectStatus(await lh(alice, tid).request(bob), 201);
    const initiate = s.callsTo('/initiate').at(-1)!;
    expect(initiate.body).toMatchObject({ team_id: tid, user_id: bob.id });
    const sockets = await Promise.all([alice, charlie].map((u) => userSocket(u)));
    try {
      expectError(await lh(alice, tid).approve(bob), 403, 'access-denied');
      expectError(await lh(bob, tid).approve(bob, 'wrong-password'), 403, 'access-denied');
      expectStatus(await lh(bob, tid).approve(bob), 200);
      const confirm = s.callsTo('/confirm').at(-1)!;
      const renewed = await call(own.publicUrl, '/v8/access', {
        method: 'POST',
        headers: { cookie: `zuid=${confirm.body.refresh_token}` },
      });
      expectStatus(renewed, 200);
      const [device] = await lhClientOf(bob);
      const status = await statusOf(alice, tid, bob);
      expect(status).toMatchObject({ status: 'enabled', client: { id: device.id } });
      for (let i = 0; i < 2; i++) {
        const client = await addClient(bob);
        const added = await clientEvents(bob, client, 'user.client-add');
        expect(added.map((e: any) => e.client)).toContainEqual(
          expect.objectContaining({ type: 'legalhold', class: 'legalhold' }),
        );
      }
      for (const ws of sockets) {
        const event = await awaitEvent(ws, 'user.legalhold-enable');
        expect(event.id).toBe(bob.id);
      }
      for (const outsider of [ollie, sandy]) {
        const client = await addClient(outsider);
        expect(await clientEvents(outsider, client, 'user.legalhold-enable')).toEqual([]);
      }
    } finally {
      await Promise.all(sockets.map((ws) => ws.close()));
    }
  });

  for (const v of VERSIONS)
    it(`LegalHold.testLHGetDeviceStatus[consent=Explicit][v=${v}]`, async () => {
      const { owner: alice, tid, members } = await createTeam(own, 2);
      const bob = members[0]!;
      for (const u of [alice, bob]) expect((await statusOf(alice, tid, u)).status).toBe('no_consent');
      const s = await lhService(v);
      await enableForTeam(tid);
      const before = await statusOf(alice, tid, bob);
      expect(before.status).toBe('no_consent');
      expect(before.last_prekey).toBeUndefined();
      expect(before.client?.id).toBeUndefined();
      expectStatus(await lh(alice, tid).postSettings(s), 201);
      expectStatus(await lh(bob, tid).consent(), 201);
      expectStatus(await lh(alice, tid).request(bob), 201);
      expectStatus(await lh(bob, tid).approve(bob), 200);
      const [device] = await lhClientOf(bob);
      expect(await statusOf(alice, tid, bob)).toMatchObject({
        status: 'enabled',
        last_prekey: s.initiated.at(-1)!.last_prekey,
        client: { id: device.id },
      });
      expectError(await lh(alice, tid).request(bob), 409, 'legalhold-already-enabled');
    });

  it('LegalHold.testLHDisableForUser[consent=Explicit]', async () => {
    const { owner: alice, tid, members } = await createTeam(own, 2);
    const bob = members[0]!;
    const s = await lhService('V0');
    // wire's awaitNotification reads the user's notification stream
    const awaitNotification = (type: string) =>
      eventually(async () => expect((await eventsOf(bob, type)).length).toBeGreaterThan(0)).then(() =>
        eventsOf(bob, type),
      );
    await setUpDevice(alice, tid, bob, s);
    const [added] = await awaitNotification('user.client-add');
    expect(added.client).toMatchObject({ type: 'legalhold', class: 'legalhold' });
    expectError(await lh(bob, tid).disable(bob), 403, 'operation-denied');
    expectError(await lh(alice, tid).disable(bob, 'not the password'), 403, 'access-denied');
    expectStatus(await lh(alice, tid).disable(bob), 200);
    expect(s.callsTo('/remove').filter((c) => c.method === 'POST')).toHaveLength(1);
    await awaitNotification('user.client-remove');
    await awaitNotification('user.legalhold-disable');
    expect(await lhClientOf(bob)).toEqual([]);
  });

  for (const v of VERSIONS)
    it(`LegalHold.testLHEnablePerTeam[consent=Explicit][v=${v}]`, async () => {
      const { owner: alice, tid, members } = await createTeam(own, 2);
      const bob = members[0]!;
      const feature = await as(alice).get(`/teams/${tid}/features/legalhold`);
      expectStatus(feature, 200);
      expect(feature.body).toMatchObject({ lockStatus: 'unlocked', status: 'disabled' });
      await setUpDevice(alice, tid, bob, await lhService(v));
      expect((await statusOf(alice, tid, bob)).status).toBe('enabled');
      expectStatus(await as(alice).put(`/teams/${tid}/features/legalhold`, { status: 'disabled' }), 200);
      expect((await statusOf(alice, tid, bob)).status).toBe('disabled');
    });

  for (const v of VERSIONS)
    it(`LegalHold.testLHHappyFlow[consent=Explicit][v=${v}]`, async () => {
      const { owner: alice, tid, members } = await createTeam(own, 2);
      const bob = members[0]!;
      await enableForTeam(tid);
      const s = await lhService(v);
      expect((await statusOf(alice, tid, bob)).status).toBe('no_consent');
      expectStatus(await lh(bob, tid).consent(), 201);
      expect((await statusOf(alice, tid, bob)).status).toBe('disabled');
      expectStatus(await lh(alice, tid).postSettings(s), 201);
      expect((await statusOf(alice, tid, bob)).status).toBe('disabled');
      expectError(await lh(bob, tid).request(alice), 403, 'operation-denied');
      expectError(await lh(bob, tid).request(bob), 403, 'operation-denied');
      expectStatus(await lh(alice, tid).request(bob), 201);
      expect((await statusOf(alice, tid, bob)).status).toBe('pending');
      expectError(await lh(alice, tid).approve(bob), 403, 'access-denied');
      expectStatus(await lh(bob, tid).approve(bob), 200);
      const enabled = await statusOf(alice, tid, bob);
      expect(enabled).toMatchObject({ status: 'enabled', last_prekey: s.initiated.at(-1)!.last_prekey });
      expect(enabled.client.id).toBeDefined();
      expectError(await lh(bob, tid).disable(bob), 403, 'operation-denied');
      expect((await statusOf(alice, tid, bob)).status).toBe('enabled');
      expect((await lh(alice, tid).disable(bob)).status).toBeLessThan(300);
      expect((await statusOf(alice, tid, bob)).status).toBe('disabled');
    });

  it('LegalHold.testLHAddClientManually', async () => {
    const { members } = await createTeam(own, 2);
    const r = await as(members[0]!).post('/clients', { type: 'legalhold', ...(await proteusKeys(1)) });
    expectError(r, 400, 'client-error');
    expect(r.body.message).toBe(
      'LegalHold clients cannot be added manually. LegalHold must be enabled on this user by an admin',
    );
  });
});
