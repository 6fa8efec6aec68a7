import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UuidV1Generator, uuidV1Key, uuidV1Time } from '../../../src/shared/uuid-v1.js';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { invitationCode } from '../../helpers/mailbox.js';
import { accessToken, signIn, teamWithIdp } from '../../helpers/saml-login.js';
import { api, createUser, invitedMember, teamOwner, type TeamOwner, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { acceptTeamInvitation, getSelf, postTeamInvitation } from '../../helpers/endpoints/brig.js';
import { deleteTeam } from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';
import { createScimToken } from '../../helpers/endpoints/spar.js';

const { publicUrl, internalUrl } = sharedBackend();
const V1 = /^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** A v1 UUID made at this time that the queue has never seen. */
const v1At = (ms: number) => new UuidV1Generator().next(ms);

const memberJoin = (team: string, user: string) => ({
  type: 'team.member-join',
  team,
  time: expect.any(String),
  data: { user },
});
const queue = (pub: string, token: string, query = '') => api(pub, token).get(`/v8/teams/notifications${query}`);

/** Invites an existing personal user into the owner's team; the mailed invitation code. */
async function inviteExisting(owner: TeamOwner, user: TestUser): Promise<string> {
  const r = await postTeamInvitation(publicUrl, owner.token, owner.team, {
    email: user.email,
    allow_existing: true,
  });
  expect(r.status).toBe(201);
  return invitationCode(publicUrl, user.email);
}

describe('GET /teams/notifications', () => {
  it('holds team.member-join for every way of joining, oldest first, for any member; not the creation', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    expect((await queue(publicUrl, owner.token)).body).toEqual({ notifications: [], has_more: false });

    const registered = await invitedMember(publicUrl, owner);
    const personal = await createUser(publicUrl, internalUrl);
    const code = await inviteExisting(owner, personal);
    expect((await acceptTeamInvitation(publicUrl, personal.token, { code, password: personal.password })).status).toBe(
      200,
    );

    const page = await queue(publicUrl, registered.token);
    expect(page.status, page.text).toBe(200);
    expect(page.body).toEqual({
      notifications: [
        { id: expect.stringMatching(V1), payload: [memberJoin(owner.team, registered.id)] },
        { id: expect.stringMatching(V1), payload: [memberJoin(owner.team, personal.id)] },
      ],
      has_more: false,
    });
    expect((await queue(publicUrl, owner.token)).body).toEqual(page.body);
  });

  it("holds team.member-join for a member the IdP signs in first and one the team's SCIM client provisions", async () => {
    const { owner, idp, idpId } = await teamWithIdp(publicUrl, internalUrl);
    const cookie = await signIn(publicUrl, idp, idpId, `sso-${crypto.randomUUID().slice(0, 8)}@corp.example`);
    const signedIn = (await getSelf(publicUrl, await accessToken(publicUrl, cookie))).body.id;
    const token = await createScimToken(publicUrl, owner.token, {
      description: 'team notifications',
      name: 'scim',
      idp: idpId,
      password: owner.password,
    });
    expect(token.status, token.text).toBe(200);
    const handle = `scim-${crypto.randomUUID().slice(0, 8)}`;
    const provisioned = await call(publicUrl, '/scim/v2/Users', {
      method: 'POST',
      headers: { authorization: `Bearer ${token.body.token}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: handle,
        externalId: `${handle}@corp.example`,
      }),
    });
    expect(provisioned.status, provisioned.text).toBe(201);
    const page = await queue(publicUrl, owner.token);
    expect(page.body.notifications.map((n: { payload: unknown }) => n.payload)).toEqual([
      [memberJoin(owner.team, signedIn)],
      [memberJoin(owner.team, (provisioned.body as { id: string }).id)],
    ]);
  });

  it('pages as wire-server: since included and not counted, has_more, an unknown since answers from its time on', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    for (let i = 0; i < 4; i++) await invitedMember(publicUrl, owner);
    const all = (await queue(publicUrl, owner.token)).body.notifications as Array<{ id: string }>;
    expect(all).toHaveLength(4);
    const [n1, n2, n3, n4] = all.map((n) => n.id) as [string, string, string, string];
    const ids = async (query: string) => {
      const r = await queue(publicUrl, owner.token, query);
      expect(r.status, r.text).toBe(200);
      return { ids: r.body.notifications.map((n: { id: string }) => n.id), has_more: r.body.has_more };
    };
    expect(await ids('?size=1')).toEqual({ ids: [n1], has_more: true });
    expect(await ids(`?since=${n2}&size=1`)).toEqual({ ids: [n2, n3], has_more: true });
    expect(await ids(`?since=${n2}&size=2`)).toEqual({ ids: [n2, n3, n4], has_more: false });
    expect(await ids(`?since=${n4}`)).toEqual({ ids: [n4], has_more: false });
    // Unknown ids are no error (no 404): older than the queue, between two entries, newer than all.
    expect(await ids(`?since=${v1At(Date.now() - 3600_000)}&size=4`)).toEqual({
      ids: [n1, n2, n3, n4],
      has_more: false,
    });
    const between = Math.round((uuidV1Time(n2) + uuidV1Time(n3)) / 2);
    expect(between).toBeGreaterThan(uuidV1Time(n2));
    expect(await ids(`?since=${v1At(between)}`)).toEqual({ ids: [n3, n4], has_more: false });
    expect(await ids(`?since=${v1At(Date.now() + 1000)}`)).toEqual({ ids: [], has_more: false });
  });

  it('is the caller’s own team’s queue; users without a team get 404 no-team', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const member = await invitedMember(publicUrl, owner);
    const otherTeam = await teamOwner(publicUrl, internalUrl);
    expect((await queue(publicUrl, otherTeam.token)).body).toEqual({ notifications: [], has_more: false });
    expect((await queue(publicUrl, owner.token)).body.notifications).toEqual([
      expect.objectContaining({ payload: [memberJoin(owner.team, member.id)] }),
    ]);
    const personal = await createUser(publicUrl, internalUrl);
    expect(await queue(publicUrl, personal.token)).toMatchObject({ status: 404, body: wireError(404, 'no-team') });
    expect(await queue(publicUrl, personal.token, `?since=${v1At(Date.now())}`)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-team'),
    });
    expect(await api(publicUrl).get('/v8/teams/notifications')).toMatchObject({ status: 401 });
  });

  it('refuses a since that is no v1 UUID and a size outside 1..10000', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    for (const since of [
      crypto.randomUUID(),
      '6ba7b810-9dad-51d1-80b4-00c04fd430c8',
      '6ba7b810-9dad-01d1-80b4-00c04fd430c8',
    ])
      expect(await queue(publicUrl, owner.token, `?since=${since}`)).toMatchObject({
        status: 400,
        body: {
          code: 400,
          label: 'invalid-notification-id',
          message: 'Could not parse notification id (must be UUIDv1).',
        },
      });
    for (const query of [
      '?since=not-a-uuid',
      '?since=',
      '?size=0',
      '?size=-1',
      '?size=10001',
      '?size=abc',
      '?size=1.5',
    ])
      expect(await queue(publicUrl, owner.token, query), query).toMatchObject({
        status: 400,
        body: wireError(400, 'bad-request'),
      });
    for (const query of ['?size=1', '?size=10000', `?since=${v1At(Date.now())}&size=10000`])
      expect((await queue(publicUrl, owner.token, query)).status, query).toBe(200);
  });

  it('pushes member-join live to the new member and the admins only, without storing it in their streams', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const personal = await createUser(publicUrl, internalUrl);
    const code = await inviteExisting(owner, personal);
    const sockets = [
      await openSocket(publicUrl, `/v8/await?access_token=${owner.token}`),
      await openSocket(publicUrl, `/v8/await?access_token=${personal.token}`),
    ];
    try {
      expect(
        (
          await acceptTeamInvitation(publicUrl, personal.token, {
            code,
            password: personal.password,
          })
        ).status,
      ).toBe(200);
      for (const socket of sockets) {
        const frame = await socket.next((m) => m.payload?.[0]?.type === 'team.member-join');
        expect(frame.payload).toEqual([memberJoin(owner.team, personal.id)]);
      }
    } finally {
      for (const socket of sockets) await socket.close();
    }
    for (const user of [owner, personal]) {
      const stream = await getNotifications(publicUrl, user.token);
      expect(
        stream.body.notifications.flatMap((n: { payload: Array<{ type: string }> }) => n.payload.map((e) => e.type)),
      ).not.toContain('team.member-join');
    }
  });

  it('is documented in the v8 and v9 swagger as get-team-notifications', async () => {
    for (const version of ['v8', 'v9']) {
      const op = (await call(publicUrl, `/${version}/api/swagger.json`)).body.paths['/teams/notifications'].get;
      expect(op.operationId).toBe('get-team-notifications');
      expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['since', 'size']);
      expect(op.responses['400'].description).toMatch(/invalid-notification-id/);
      expect(op.responses['404'].description).toMatch(/no-team/);
    }
  });
});

describe('team queue expiry (gundeck notificationTTL)', () => {
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([]);
  });
  afterAll(() => b?.stop());

  /** Puts a member-join into the team's queue as if it had been made `ageMs` ago. */
  async function backdated(owner: TeamOwner, ageMs: number): Promise<string> {
    const id = v1At(Date.now() - ageMs);
    const payload = JSON.stringify([
      {
        type: 'team.member-join',
        team: owner.team,
        time: new Date(Date.now() - ageMs).toISOString(),
        data: { user: crypto.randomUUID() },
      },
    ]);
    await b.query(
      'INSERT INTO team_notifications (team, key, id, payload) VALUES (?, ?, ?, ?)',
      owner.team,
      uuidV1Key(id),
      id,
      payload,
    );
    return id;
  }

  it('skips expired entries on read, the scheduled job removes them, and team deletion empties the queue', async () => {
    const ttlMs = 2419200 * 1000; // the shipped gundeck.yaml's notificationTTL: 28 days
    const owner = await teamOwner(b.publicUrl, b.internalUrl);
    const expired = await backdated(owner, ttlMs + 60_000);
    const kept = await backdated(owner, ttlMs - 60_000);
    const member = await invitedMember(b.publicUrl, owner);

    const page = await queue(b.publicUrl, owner.token);
    expect(page.body.notifications.map((n: { id: string }) => n.id)).toEqual([kept, expect.any(String)]);
    expect(page.body.notifications[1].payload).toEqual([memberJoin(owner.team, member.id)]);
    // Asked for since the expired id, the queue answers from its time on, without it.
    expect((await queue(b.publicUrl, owner.token, `?since=${expired}`)).body.notifications).toHaveLength(2);

    await b.runScheduled();
    const rows = await b.query<{ id: string }>(
      'SELECT id FROM team_notifications WHERE team = ? ORDER BY key',
      owner.team,
    );
    expect(rows.map((r) => r.id)).toEqual([kept, page.body.notifications[1].id]);

    expect((await deleteTeam(b.publicUrl, owner.token, owner.team, { password: owner.password })).status).toBe(202);
    expect(await b.query('SELECT id FROM team_notifications WHERE team = ?', owner.team)).toEqual([]);
  });
});
