import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { lastMail } from '../../helpers/mailbox.js';
import { api, login, uniqueEmail } from '../../helpers/users.js';
import { deleteTeamInvitation, getTeamInvitations, postTeamInvitation } from '../../helpers/endpoints/brig.js';
import { getFeatureConfigs, getTeamFeature, putTeamFeature } from '../../helpers/endpoints/galley.js';

/** Feature rules that depend on galley's configuration: the allow-list and legal hold. */
describe('team features under galley configuration', () => {
  let b: TestBackend;
  let owner: { token: string; team: string };
  let earlier: { email: string };
  const password = 'secret-password';

  beforeAll(async () => {
    // A team first, then the backend again on the same state with that team allow-listed.
    const first = await startEditedBackend([]);
    const email = uniqueEmail('owner');
    const created = await api(first.internalUrl).post('/i/users', {
      name: 'Owner',
      email,
      password,
      team: { name: 'T', icon: 'default' },
    });
    earlier = { email: uniqueEmail('earlier') };
    expect(
      (await api(first.internalUrl).post('/i/users', { name: 'Earlier', email: earlier.email, password })).status,
    ).toBe(201);
    await first.stop();
    b = await startEditedBackend(
      [
        ['galley.yaml', ['settings', 'exposeInvitationURLsTeamAllowlist'], [created.body.team]],
        ['galley.yaml', ['settings', 'featureFlags', 'legalhold'], 'disabled-permanently'],
        ['galley.yaml', ['settings', 'maxTeamSize'], 3],
        [
          'brig.yaml',
          ['optSettings', 'setFeatureFlags', 'conferenceCalling'],
          { defaultForNew: { status: 'enabled' }, defaultForNull: { status: 'disabled' } },
        ],
      ],
      { stateDir: first.stateDir },
    );
    owner = { team: created.body.team, token: (await login(b.publicUrl, email, password)).token };
  });
  afterAll(async () => b?.stop());

  it('shows invitation URLs to allow-listed teams once they enable exposeInvitationURLsToTeamAdmin', async () => {
    expect(
      (await getTeamFeature(b.publicUrl, owner.token, owner.team, 'exposeInvitationURLsToTeamAdmin')).body,
    ).toEqual({ status: 'disabled', lockStatus: 'unlocked', ttl: 'unlimited' });
    const email = uniqueEmail('invitee');
    const sent = await postTeamInvitation(b.publicUrl, owner.token, owner.team, { email });
    expect(sent.body.url).toBeUndefined();
    expect(
      (
        await putTeamFeature(b.publicUrl, owner.token, owner.team, 'exposeInvitationURLsToTeamAdmin', {
          status: 'enabled',
        })
      ).status,
    ).toBe(200);
    const listed = await getTeamInvitations(b.publicUrl, owner.token, owner.team);
    const code = /team-code=([^\s&]+)/.exec((await lastMail(b.publicUrl, email)).text)![1]!;
    expect(listed.body.invitations[0].url).toBe(`http://127.0.0.1:8080/join/?team-code=${code}`);
  });

  it('refuses legal hold changes when the instance disables it permanently', async () => {
    expect(
      await putTeamFeature(b.publicUrl, owner.token, owner.team, 'legalhold', { status: 'enabled' }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'legalhold-not-enabled'),
    });
  });

  it("gives personal users brig's conference calling: their own value, else defaultForNull", async () => {
    const before = await login(b.publicUrl, earlier.email, password);
    expect((await getFeatureConfigs(b.publicUrl, before.token)).body.conferenceCalling.status).toBe('disabled');
    const email = uniqueEmail('later');
    expect((await api(b.internalUrl).post('/i/users', { name: 'Later', email, password })).status).toBe(201);
    const after = await login(b.publicUrl, email, password);
    expect((await getFeatureConfigs(b.publicUrl, after.token)).body.conferenceCalling.status).toBe('enabled');
  });

  it('keeps pending invitations within the team size limit', async () => {
    for (const inv of (await getTeamInvitations(b.publicUrl, owner.token, owner.team)).body.invitations)
      expect((await deleteTeamInvitation(b.publicUrl, owner.token, owner.team, inv.id)).status).toBe(200);
    // A team of one (maximum 3) has room for two pending invitations.
    expect(
      (await postTeamInvitation(b.publicUrl, owner.token, owner.team, { email: uniqueEmail('second') })).status,
    ).toBe(201);
    const sent = await postTeamInvitation(b.publicUrl, owner.token, owner.team, { email: uniqueEmail('third') });
    expect(sent.status, sent.text).toBe(201);
    expect(
      await postTeamInvitation(b.publicUrl, owner.token, owner.team, { email: uniqueEmail('fourth') }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'too-many-team-invitations'),
    });
    expect((await deleteTeamInvitation(b.publicUrl, owner.token, owner.team, sent.body.id)).status).toBe(200);
    expect(
      (await postTeamInvitation(b.publicUrl, owner.token, owner.team, { email: uniqueEmail('fifth') })).status,
    ).toBe(201);
  });
});
