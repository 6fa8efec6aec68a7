import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import type { Reply } from '../../helpers/http.js';
import { api, createUser, invitedMember, teamOwner } from '../../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();

/** Not served at that version: no route (404), only other methods on the path (405), or a newer route's parameters (400). */
const notServed = (r: Reply) => expect([400, 404, 405], `${r.status} ${r.text}`).toContain(r.status);

describe("older versions' team routes", () => {
  it('lists the caller’s team, refuses new non-binding teams and added members, until v4', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const member = await invitedMember(publicUrl, owner);
    const outsider = await createUser(publicUrl, internalUrl);
    const owner_ = api(publicUrl, owner.token);

    const listed = await owner_.get('/v3/teams');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual({ teams: [expect.objectContaining({ id: owner.team })], has_more: false });
    expect((await api(publicUrl, outsider.token).get('/v3/teams')).body).toEqual({ teams: [], has_more: false });
    notServed(await owner_.get('/v4/teams'));

    const made = await owner_.post('/v3/teams', { name: 'Another', icon: 'default' });
    expect([made.status, made.body.label]).toEqual([400, 'invalid-actions']);
    notServed(await owner_.post('/v4/teams', { name: 'Another', icon: 'default' }));

    const newMember = { member: { user: outsider.id, permissions: { self: 1587, copy: 1587 } } };
    const byOwner = await owner_.post(`/v3/teams/${owner.team}/members`, newMember);
    expect([byOwner.status, byOwner.body.label]).toEqual([403, 'binding-team']);
    const byMember = await api(publicUrl, member.token).post(`/v3/teams/${owner.team}/members`, newMember);
    expect([byMember.status, byMember.body.label]).toEqual([403, 'operation-denied']);
    const byOutsider = await api(publicUrl, outsider.token).post(`/v3/teams/${owner.team}/members`, newMember);
    expect([byOutsider.status, byOutsider.body.label]).toEqual([403, 'no-team-member']);
    notServed(await owner_.post(`/v4/teams/${owner.team}/members`, newMember));
  });
});

describe("older versions' feature routes", () => {
  it('answers /feature-configs/{name} with the caller’s feature until v2', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const owner_ = api(publicUrl, owner.token);
    const all = (await owner_.get('/v8/feature-configs')).body;
    for (const name of ['fileSharing', 'conferenceCalling', 'sso', 'mls', 'conversationGuestLinks']) {
      const one = await owner_.get(`/v1/feature-configs/${name}`);
      expect([one.status, one.body], name).toEqual([200, all[name]]);
    }
    const personal = await createUser(publicUrl, internalUrl);
    const own = await api(publicUrl, personal.token).get('/v0/feature-configs/selfDeletingMessages');
    expect(own.body).toEqual(
      (await api(publicUrl, personal.token).get('/v8/feature-configs')).body.selfDeletingMessages,
    );
    notServed(await owner_.get('/v2/feature-configs/fileSharing'));
  });

  it('serves team features by their pre-v2 names until v2', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const owner_ = api(publicUrl, owner.token);
    const base = `/teams/${owner.team}/features`;
    const set = await owner_.put(`/v1${base}/search-visibility`, { status: 'enabled' });
    expect([set.status, set.body.status], set.text).toEqual([200, 'enabled']);
    expect((await owner_.get(`/v8${base}/searchVisibility`)).body.status).toBe('enabled');
    expect((await owner_.get(`/v1${base}/search-visibility`)).body).toEqual(
      (await owner_.get(`/v8${base}/searchVisibility`)).body,
    );
    expect((await owner_.get(`/v1${base}/validate-saml-emails`)).body).toEqual(
      (await owner_.get(`/v8${base}/validateSAMLemails`)).body,
    );
    expect((await owner_.get(`/v0${base}/digital-signatures`)).body).toEqual(
      (await owner_.get(`/v8${base}/digitalSignatures`)).body,
    );
    notServed(await owner_.get(`/v2${base}/search-visibility`));
    notServed(await owner_.put(`/v2${base}/search-visibility`, { status: 'disabled' }));
  });
});
