import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { freshDomain } from '../../helpers/domain-registration.js';
import { invitationCode, mailsTo } from '../../helpers/mailbox.js';
import { call } from '../../helpers/http.js';
import { teamWithIdp } from '../../helpers/saml-login.js';
import { activationCode, api, createUser, teamOwner } from '../../helpers/users.js';
import {
  acceptTeamInvitation,
  getSelf,
  postActivate,
  postRegister,
  postTeamInvitation,
  upgradePersonalToTeam,
} from '../../helpers/endpoints/brig.js';

const { publicUrl, internalUrl } = sharedBackend();

/** 403 `condition-failed` with wire's message naming the rule. */
const refused = (message: string) => ({ status: 403, body: { code: 403, label: 'condition-failed', message } });
const SSO = '`domain_redirect` is set to `sso:{code}`';
const BACKEND = '`domain_redirect` is set to `backend`';
const NO_REGISTRATION = '`domain_redirect` is set to `no-registration`';
const NOT_ALLOWED = '`teamInvite` is set to `not-allowed`';
const OTHER_TEAM = '`teamInvite` is restricted to another team.';
const NOT_INVITABLE = refused('Emails from this domain are not allowed to be invited to this team');

/** Operators set the domain's registration. */
async function register(domain: string, update: Record<string, unknown>): Promise<void> {
  const r = await api(internalUrl).put(`/i/domain-registration/${domain}`, {
    domain_redirect: 'none',
    team_invite: 'allowed',
    ...update,
  });
  expect(r.status, r.text).toBe(204);
}
const backend = { domain_redirect: 'backend', backend: { config_url: 'https://w.example.com' } };

describe('brig: email domains registered elsewhere keep their addresses out', () => {
  it('refuses registration and activation for domains signing in through sso, another backend, or nowhere', async () => {
    for (const [update, message] of [
      [{ domain_redirect: 'sso', sso_code: crypto.randomUUID() }, SSO],
      [{ ...backend, team_invite: 'not-allowed' }, BACKEND],
      [{ domain_redirect: 'no-registration' }, NO_REGISTRATION],
    ] as const) {
      const domain = freshDomain();
      const email = `anna@${domain}`;
      // an account waiting for its activation when the domain was registered
      const waiting = await postRegister(publicUrl, { name: 'Anna', email, password: 'secret-password' });
      expect(waiting.status, waiting.text).toBe(201);
      const code = await activationCode(internalUrl, email);
      await register(domain, update);
      const newcomer = `bert@${domain}`;
      expect(await postRegister(publicUrl, { name: 'B', email: newcomer, password: 'pw-secret-1' })).toMatchObject(
        refused(message),
      );
      expect(
        await postRegister(publicUrl, {
          name: 'B',
          email: newcomer,
          password: 'pw-secret-1',
          team: { name: 'Bert & Co', icon: 'default' },
        }),
      ).toMatchObject(refused(message));
      for (const dryrun of [true, false])
        expect(await postActivate(publicUrl, { email, code, dryrun })).toMatchObject(refused(message));
    }
    // locked and pre-authorized domains take registrations as before
    for (const redirect of ['locked', 'pre-authorized']) {
      const domain = freshDomain();
      await register(domain, { domain_redirect: redirect });
      await createUser(publicUrl, internalUrl, { email: `anna@${domain}` });
    }
  });

  it("follows the domain's invite rule for invitations and for joining", async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const other = await teamOwner(publicUrl, internalUrl);
    const invite = (email: string, extra: Record<string, unknown> = {}) =>
      postTeamInvitation(publicUrl, owner.token, owner.team, { email, ...extra });

    const closed = freshDomain();
    await register(closed, { team_invite: 'not-allowed' });
    expect(await invite(`x@${closed}`)).toMatchObject(NOT_INVITABLE);
    const theirs = freshDomain();
    await register(theirs, { team_invite: 'team', team: other.team });
    expect(await invite(`x@${theirs}`)).toMatchObject(NOT_INVITABLE);
    const ours = freshDomain();
    await register(ours, { team_invite: 'team', team: owner.team });
    expect((await invite(`x@${ours}`)).status).toBe(201);

    // an invitation sent before the rule changed is not honoured after it
    const domain = freshDomain();
    const email = `late@${domain}`;
    expect((await invite(email)).status).toBe(201);
    const team_code = await invitationCode(publicUrl, email);
    await register(domain, { team_invite: 'team', team: other.team });
    const join = { name: 'Late', email, password: 'secret-password', team_code };
    expect(await postRegister(publicUrl, join)).toMatchObject(refused(OTHER_TEAM));
    await register(domain, { team_invite: 'not-allowed' });
    expect(await postRegister(publicUrl, join)).toMatchObject(refused(NOT_ALLOWED));
    await register(domain, { team_invite: 'team', team: owner.team });
    expect((await postRegister(publicUrl, join)).status).toBe(201);
  });

  it('keeps existing accounts of a no-registration domain out of teams, and personal teams out of owned domains', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const domain = freshDomain();
    const paolo = await createUser(publicUrl, internalUrl, { email: `paolo@${domain}` });
    // invited while the domain was open, accepted after it closed
    expect(
      (
        await postTeamInvitation(publicUrl, owner.token, owner.team, {
          email: paolo.email,
          allow_existing: true,
        })
      ).status,
    ).toBe(201);
    const code = await invitationCode(publicUrl, paolo.email);
    await register(domain, { domain_redirect: 'no-registration' });
    expect(
      await postTeamInvitation(publicUrl, owner.token, owner.team, {
        email: paolo.email,
        allow_existing: true,
      }),
    ).toMatchObject(NOT_INVITABLE);
    // a new address of the domain may still be invited: it registers through the invitation
    expect((await postTeamInvitation(publicUrl, owner.token, owner.team, { email: `new@${domain}` })).status).toBe(201);
    const upgrade = { name: 'Paolo & Co', icon: 'default' };
    expect(await upgradePersonalToTeam(publicUrl, paolo.token, upgrade)).toMatchObject(refused(NO_REGISTRATION));
    await register(domain, { team_invite: 'not-allowed' });
    expect(await upgradePersonalToTeam(publicUrl, paolo.token, upgrade)).toMatchObject(refused(NOT_ALLOWED));
    expect(await acceptTeamInvitation(publicUrl, paolo.token, { code, password: paolo.password })).toMatchObject(
      refused(NOT_ALLOWED),
    );
    await register(domain, { domain_redirect: 'none' });
    expect((await upgradePersonalToTeam(publicUrl, paolo.token, upgrade)).status).toBe(200);
  });

  it('refuses moving to an address of a domain registered elsewhere, without mailing it', async () => {
    const user = await createUser(publicUrl, internalUrl);
    for (const [update, message] of [
      [{ ...backend, team_invite: 'not-allowed' }, BACKEND],
      [{ domain_redirect: 'no-registration' }, NO_REGISTRATION],
      [{ domain_redirect: 'sso', sso_code: crypto.randomUUID() }, SSO],
      [{ team_invite: 'not-allowed' }, NOT_ALLOWED],
      [{ team_invite: 'team', team: crypto.randomUUID() }, OTHER_TEAM],
    ] as const) {
      const domain = freshDomain();
      await register(domain, update);
      const email = `moved@${domain}`;
      expect(await changeEmail(user, email)).toMatchObject(refused(message));
      expect(await mailsTo(publicUrl, email)).toEqual([]);
    }
    expect((await getSelf(publicUrl, user.token)).body.email_unvalidated).toBeUndefined();
  });

  it("lets a team's user move into a domain that signs in through the team's own IdP", async () => {
    const { owner, idpId } = await teamWithIdp(publicUrl, internalUrl);
    const domain = freshDomain();
    await register(domain, { domain_redirect: 'sso', sso_code: idpId });
    expect((await changeEmail(owner, `owner@${domain}`)).status).toBe(202);
  });
});

/** `PUT /access/self/email`, which takes the cookie with the token. */
const changeEmail = (user: { token: string; cookie: string }, email: string) =>
  call(publicUrl, '/v8/access/self/email', {
    method: 'PUT',
    headers: { authorization: `Bearer ${user.token}`, cookie: user.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
