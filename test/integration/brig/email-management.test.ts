import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { mailsTo } from '../../helpers/mailbox.js';
import {
  activationCode,
  api,
  cookieOf,
  createUser,
  invitedMember,
  teamOwner,
  uniqueEmail,
} from '../../helpers/users.js';
import {
  deleteSelfEmail,
  getSelf,
  postAccess,
  postActivate,
  postRegister,
  putUserEmail,
} from '../../helpers/endpoints/brig.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const { publicUrl, internalUrl } = sharedBackend();
const nobody = '00000000-0000-4000-8000-0000000000ee';

const events = async (base: string, token: string, type: string) =>
  (await getNotifications(base, token)).body.notifications
    .map((n: any) => n.payload[0])
    .filter((e: any) => e.type === type);

/** An access token for an account a registration made (its cookie, renewed at /access). */
async function tokenOfRegistration(
  base: string,
  body: Record<string, unknown>,
): Promise<{ id: string; token: string }> {
  const r = await postRegister(base, body);
  expect(r.status, r.text).toBe(201);
  const access = await postAccess(base, undefined, cookieOf(r));
  expect(access.status, access.text).toBe(200);
  return { id: r.body.id, token: access.body.access_token };
}

describe('PUT /users/{uid}/email', () => {
  it('lets a team admin start a member’s email change: code mailed to the new address, switched on activation', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const admin = await invitedMember(publicUrl, owner, 'admin');
    const member = await invitedMember(publicUrl, owner, 'member');
    const next = uniqueEmail('renamed');
    const put = await putUserEmail(publicUrl, admin.token, member.id, { email: next });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual([]);
    const code = await activationCode(internalUrl, next);
    const [mail, ...older] = await mailsTo(publicUrl, next);
    expect(older).toEqual([]);
    expect(mail!.text).toContain(code);
    expect((await getSelf(publicUrl, member.token)).body).toMatchObject({
      email: member.email,
      email_unvalidated: next,
    });

    const activated = await postActivate(publicUrl, { email: next, code, dryrun: false });
    expect(activated).toMatchObject({ status: 200, body: { email: next, first: false } });
    const self = (await getSelf(publicUrl, member.token)).body;
    expect(self.email).toBe(next);
    expect(self.email_unvalidated).toBeUndefined();
    expect(await events(publicUrl, member.token, 'user.update')).toContainEqual({
      type: 'user.update',
      user: { id: member.id, email: next },
    });
  });

  it('restarts a pending change, leaves the current address alone, and works for owners and on oneself', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const member = await invitedMember(publicUrl, owner);
    const next = uniqueEmail('again');
    for (let i = 0; i < 2; i++)
      expect((await putUserEmail(publicUrl, owner.token, member.id, { email: next })).status).toBe(200);
    expect(await mailsTo(publicUrl, next)).toHaveLength(2);

    const before = (await mailsTo(publicUrl, member.email)).length;
    const same = await putUserEmail(publicUrl, owner.token, member.id, { email: member.email });
    expect(same).toMatchObject({ status: 200, body: [] });
    expect(await mailsTo(publicUrl, member.email)).toHaveLength(before);

    const own = uniqueEmail('own');
    expect((await putUserEmail(publicUrl, owner.token, owner.id, { email: own })).status).toBe(200);
    expect((await getSelf(publicUrl, owner.token)).body.email_unvalidated).toBe(own);
  });

  it('refuses callers without ChangeTeamMemberProfiles with 403 insufficient-permissions', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const member = await invitedMember(publicUrl, owner, 'member');
    const partner = await invitedMember(publicUrl, owner, 'partner');
    const personal = await createUser(publicUrl, internalUrl);
    for (const caller of [member, partner, personal]) {
      for (const target of [owner.id, caller.id]) {
        expect(await putUserEmail(publicUrl, caller.token, target, { email: uniqueEmail() })).toMatchObject({
          status: 403,
          body: wireError(403, 'insufficient-permissions'),
        });
      }
    }
    expect((await getSelf(publicUrl, owner.token)).body.email_unvalidated).toBeUndefined();
  });

  it('answers 404 not-found for users outside the admin’s team', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const otherOwner = await teamOwner(publicUrl, internalUrl);
    const personal = await createUser(publicUrl, internalUrl);
    for (const target of [otherOwner.id, personal.id, nobody]) {
      expect(await putUserEmail(publicUrl, owner.token, target, { email: uniqueEmail() })).toMatchObject({
        status: 404,
        body: wireError(404, 'not-found'),
      });
    }
    expect((await getSelf(publicUrl, personal.token)).body.email_unvalidated).toBeUndefined();
  });

  it('refuses taken and invalid addresses and malformed ids', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const member = await invitedMember(publicUrl, owner);
    const stranger = await createUser(publicUrl, internalUrl);
    const boss = api(publicUrl, owner.token);
    expect(
      await putUserEmail(publicUrl, owner.token, member.id, { email: stranger.email.toUpperCase() }),
    ).toMatchObject({
      status: 409,
      body: wireError(409, 'key-exists'),
    });
    expect(await putUserEmail(publicUrl, owner.token, member.id, { email: 'not-an-email' })).toMatchObject({
      status: 400,
      body: wireError(400, 'invalid-email'),
    });
    expect(await boss.put('/v8/users/not-a-uuid/email', { email: uniqueEmail() })).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    expect((await getSelf(publicUrl, member.token)).body.email_unvalidated).toBeUndefined();
    expect((await putUserEmail(publicUrl, undefined, member.id, { email: uniqueEmail() })).status).toBe(401);
  });
});

describe('DELETE /self/email', () => {
  it('refuses to remove the only identity of email users (403 last-identity)', async () => {
    const personal = await createUser(publicUrl, internalUrl);
    const owner = await teamOwner(publicUrl, internalUrl);
    for (const u of [personal, owner]) {
      expect(await deleteSelfEmail(publicUrl, u.token)).toMatchObject({
        status: 403,
        body: wireError(403, 'last-identity'),
      });
      expect((await getSelf(publicUrl, u.token)).body.email).toBe(u.email);
    }
  });

  it('answers 403 no-identity to users without a verified email', async () => {
    const guest = await tokenOfRegistration(publicUrl, { name: 'Guest' });
    const unverified = await tokenOfRegistration(publicUrl, {
      name: 'Later',
      email: uniqueEmail('later'),
      password: 'secret-password',
    });
    for (const u of [guest, unverified]) {
      expect(await deleteSelfEmail(publicUrl, u.token)).toMatchObject({
        status: 403,
        body: wireError(403, 'no-identity'),
      });
    }
  });
});

describe('DELETE /self/email of SSO users', () => {
  // SSO identities come from spar, which does not exist yet: the test writes them into D1 itself.
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([]);
  });
  afterAll(() => b?.stop());

  const withSsoId = async (ssoId: unknown, o: { dropEmail?: boolean } = {}) => {
    const owner = await teamOwner(b.publicUrl, b.internalUrl);
    await b.query('UPDATE users SET sso_id = ? WHERE id = ?', JSON.stringify(ssoId), owner.id);
    if (o.dropEmail) await b.query('UPDATE users SET email = NULL, email_key = NULL WHERE id = ?', owner.id);
    return owner;
  };
  const saml = { tenant: '<Issuer>https://idp.example.com</Issuer>', subject: '<NameID>someone</NameID>' };

  it('removes the email of a SAML user: gone from the profile, free again, user.identity-remove to the user', async () => {
    const u = await withSsoId(saml);
    const removed = await deleteSelfEmail(b.publicUrl, u.token);
    expect(removed.status, removed.text).toBe(200);
    const self = (await getSelf(b.publicUrl, u.token)).body;
    expect(self.email).toBeUndefined();
    expect(self.sso_id).toEqual(saml);
    expect(await events(b.publicUrl, u.token, 'user.identity-remove')).toEqual([
      { type: 'user.identity-remove', user: { id: u.id, email: u.email } },
    ]);
    const reused = await api(b.internalUrl).post('/i/users', {
      name: 'Reuser',
      email: u.email,
      password: 'secret-password',
    });
    expect(reused.status, reused.text).toBe(201);
    expect(await deleteSelfEmail(b.publicUrl, u.token)).toMatchObject({
      status: 403,
      body: wireError(403, 'last-identity'),
    });
  });

  it('keeps the email of SCIM-only identities and of SAML users without one (403 last-identity)', async () => {
    const scim = await withSsoId({ scim_external_id: 'someone@example.com' });
    const samlWithoutEmail = await withSsoId(saml, { dropEmail: true });
    for (const u of [scim, samlWithoutEmail]) {
      expect(await deleteSelfEmail(b.publicUrl, u.token)).toMatchObject({
        status: 403,
        body: wireError(403, 'last-identity'),
      });
    }
    expect((await getSelf(b.publicUrl, scim.token)).body.email).toBe(scim.email);
  });
});
