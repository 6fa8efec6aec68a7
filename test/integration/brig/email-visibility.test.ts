import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import type { Edit } from '../../helpers/config-files.js';
import { api, createUser, invitedMember, teamOwner, type TestUser } from '../../helpers/users.js';
import { getSelf, getUser, listUsers } from '../../helpers/endpoints/brig.js';

/** One team with every role, a second team and a personal user, on one backend. */
async function cast(publicUrl: string, internalUrl: string) {
  const owner = await teamOwner(publicUrl, internalUrl);
  const [admin, member, partner] = await Promise.all(
    (['admin', 'member', 'partner'] as const).map((role) => invitedMember(publicUrl, owner, role)),
  );
  const otherTeam = await teamOwner(publicUrl, internalUrl);
  const personal = await createUser(publicUrl, internalUrl);
  return { owner, admin: admin!, member: member!, partner: partner!, otherTeam, personal };
}
type Cast = Awaited<ReturnType<typeof cast>>;

/** The email in `viewer`'s view of `target`'s profile (undefined: not shown). */
async function emailSeen(base: string, viewer: TestUser, target: TestUser): Promise<string | undefined> {
  const r = await getUser(base, viewer.token, { domain: 'example.com', id: target.id });
  expect(r.status, r.text).toBe(200);
  return r.body.email;
}

/** Checks every viewer/target pair against the expected visibility. */
async function expectVisibility(base: string, c: Cast, visible: (viewer: keyof Cast, target: keyof Cast) => boolean) {
  const names = Object.keys(c) as Array<keyof Cast>;
  for (const viewer of names)
    for (const target of names) {
      const seen = await emailSeen(base, c[viewer], c[target]);
      expect(seen, `${viewer} looking at ${target}`).toBe(visible(viewer, target) ? c[target].email : undefined);
    }
}

const teamOf = (who: keyof Cast) => (who === 'personal' ? undefined : who === 'otherTeam' ? 'B' : 'A');
const sameTeam = (viewer: keyof Cast, target: keyof Cast) =>
  teamOf(viewer) !== undefined && teamOf(viewer) === teamOf(target);

/** brig's setting and galley's feature flag, which must agree. */
const emailVisibility = (value: string): Edit[] => [
  ['brig.yaml', ['optSettings', 'setEmailVisibility'], value],
  ['galley.yaml', ['settings', 'featureFlags', 'emailVisibility'], value],
];

describe('setEmailVisibility: visible_to_self (shipped)', () => {
  const { publicUrl, internalUrl } = sharedBackend();
  let c: Cast;
  beforeAll(async () => {
    c = await cast(publicUrl, internalUrl);
  });

  it('shows emails in profiles only to the team’s owners and admins, for their own team', async () => {
    const ownersAndAdmins = ['owner', 'admin', 'otherTeam'];
    await expectVisibility(
      publicUrl,
      c,
      (viewer, target) => ownersAndAdmins.includes(viewer) && sameTeam(viewer, target),
    );
  });

  it('always shows the own email at GET /self', async () => {
    for (const u of [c.member, c.partner, c.personal])
      expect((await getSelf(publicUrl, u.token)).body.email).toBe(u.email);
  });

  it('applies the same rule to POST /list-users, in every version', async () => {
    const ids = [c.member, c.otherTeam, c.personal].map((u) => ({ id: u.id, domain: 'example.com' }));
    const byAdmin = await listUsers(publicUrl, c.admin.token, { qualified_ids: ids });
    expect(Object.fromEntries(byAdmin.body.found.map((p: any) => [p.id, p.email]))).toEqual({
      [c.member.id]: c.member.email,
      [c.otherTeam.id]: undefined,
      [c.personal.id]: undefined,
    });
    const byMember = await api(publicUrl, c.member.token).post('/v3/list-users', { qualified_ids: ids });
    expect(byMember.body).toHaveLength(3);
    expect(byMember.body.filter((p: any) => 'email' in p)).toEqual([]);
  });
});

describe('setEmailVisibility: visible_if_on_same_team', () => {
  let b: TestBackend;
  let c: Cast;
  beforeAll(async () => {
    b = await startEditedBackend(emailVisibility('visible_if_on_same_team'));
    c = await cast(b.publicUrl, b.internalUrl);
  });
  afterAll(() => b?.stop());

  it('shows a member’s email to the members of the same team, not to partners nor outsiders', async () => {
    await expectVisibility(b.publicUrl, c, (viewer, target) => viewer !== 'partner' && sameTeam(viewer, target));
  });

  it('applies to POST /list-users', async () => {
    const ids = [c.owner, c.otherTeam].map((u) => ({ id: u.id, domain: 'example.com' }));
    const found = (await listUsers(b.publicUrl, c.member.token, { qualified_ids: ids })).body.found;
    expect(Object.fromEntries(found.map((p: any) => [p.id, p.email]))).toEqual({
      [c.owner.id]: c.owner.email,
      [c.otherTeam.id]: undefined,
    });
  });
});

describe('setEmailVisibility: visible_if_on_team', () => {
  let b: TestBackend;
  let c: Cast;
  beforeAll(async () => {
    b = await startEditedBackend(emailVisibility('visible_if_on_team'));
    c = await cast(b.publicUrl, b.internalUrl);
  });
  afterAll(() => b?.stop());

  it('shows the email of every team user to everyone, and no personal user’s', async () => {
    await expectVisibility(b.publicUrl, c, (_viewer, target) => target !== 'personal');
  });
});
