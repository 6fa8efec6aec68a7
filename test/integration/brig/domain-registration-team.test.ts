import { describe, expect, it } from 'vitest';
import {
  authorizedDomain,
  challengeFor,
  domainBackend,
  enableDomainRegistration,
  freshDomain,
  verifyForTeam,
} from '../../helpers/domain-registration.js';
import { postJson, wireError } from '../../helpers/http.js';
import { mailsTo } from '../../helpers/mailbox.js';
import { accessToken, signIn, teamWithIdp } from '../../helpers/saml-login.js';
import { api, createUser, invitedMember, teamOwner, type TeamOwner } from '../../helpers/users.js';
import { authorizeTeamDomain, getSelf } from '../../helpers/endpoints/brig.js';

const AUDIT = 'team-audit@example.com';
const FORBIDDEN = wireError(403, 'operation-forbidden-for-domain-registration-state');

describe('brig: a team registers its email domain', () => {
  const rig = domainBackend(AUDIT);

  const lookup = (email: string) => postJson(rig.b.publicUrl, '/v8/get-domain-registration', { email });
  const teamInvite = (who: { token: string }, domain: string, config: unknown) =>
    api(rig.b.publicUrl, who.token).post(`/v8/domain-verification/${domain}/team`, config);
  const registered = (who: { token: string }, team: string, v = 8) =>
    api(rig.b.publicUrl, who.token).get(`/v${v}/teams/${team}/registered-domains`);

  it("lets only a paying team's admins prove, authorize and give up a domain", async () => {
    const owner = await teamOwner(rig.b.publicUrl, rig.b.internalUrl);
    const member = await invitedMember(rig.b.publicUrl, owner, 'member');
    const personal = await createUser(rig.b.publicUrl, rig.b.internalUrl);
    const domain = freshDomain();
    const challenge = await challengeFor(rig.b.publicUrl, domain, rig.dns);
    // the feature is what the customer pays for: 402 until it is on, for members too
    for (const who of [owner, member])
      expect(await verifyForTeam(rig.b.publicUrl, who.token, domain, challenge)).toMatchObject({
        status: 402,
        body: wireError(402, 'domain-registration-update-payment-required'),
      });
    expect((await registered(owner, owner.team)).status).toBe(402);
    await enableDomainRegistration(rig.b.internalUrl, owner.team);
    for (const who of [member, personal])
      expect(await verifyForTeam(rig.b.publicUrl, who.token, domain, challenge)).toMatchObject({
        status: 403,
        body: FORBIDDEN,
      });
    // no operator had to pre-authorize the domain
    const proven = await verifyForTeam(rig.b.publicUrl, owner.token, domain, challenge);
    expect(proven.status, proven.text).toBe(200);
    const ownership = proven.body.domain_ownership_token as string;
    expect(await teamInvite(owner, domain, { team_invite: 'not-allowed' })).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });
    const authorize = (token: string) =>
      authorizeTeamDomain(rig.b.publicUrl, owner.token, domain, {
        domain_ownership_token: token,
      });
    expect(await authorize('C'.repeat(43))).toMatchObject({
      status: 401,
      body: wireError(401, 'domain-registration-update-auth-failure'),
    });
    expect((await authorize(ownership)).status).toBe(200);

    expect((await registered(owner, owner.team)).body).toEqual({
      registered_domains: [
        {
          domain,
          authorized_team: owner.team,
          domain_redirect: 'none',
          team_invite: 'allowed',
          dns_verification_token: challenge.dns_verification_token,
        },
      ],
    });
    expect(await registered(member, owner.team)).toMatchObject({ status: 403, body: FORBIDDEN });
    const other = await teamOwner(rig.b.publicUrl, rig.b.internalUrl);
    await enableDomainRegistration(rig.b.internalUrl, other.team);
    expect(await registered(other, owner.team)).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await teamInvite(other, domain, { team_invite: 'allowed' })).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });

    // who may invite the domain's users, and whether they may register at all
    expect(await teamInvite(owner, domain, { team_invite: 'team', team: other.team })).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });
    expect(
      (await teamInvite(owner, domain, { team_invite: 'allowed', domain_redirect: 'none', sso: crypto.randomUUID() }))
        .status,
    ).toBe(400);
    const set = await teamInvite(owner, domain, {
      team_invite: 'team',
      team: owner.team,
      domain_redirect: 'no-registration',
    });
    expect(set.status, set.text).toBe(200);
    expect((await lookup(`sven@${domain}`)).body).toEqual({ domain_redirect: 'no-registration' });
    const audit = (await mailsTo(rig.b.publicUrl, AUDIT))[0]!;
    expect(audit.subject).toBe('Domain registration updated');
    expect(audit.text).toContain(`PUT /i/domain-registration/${domain} called;`);
    expect((await registered(owner, owner.team)).body.registered_domains[0]).toMatchObject({
      domain_redirect: 'no-registration',
      team_invite: 'team',
      team: owner.team,
    });

    // operators sent the domain to another backend: no longer the team's to change; v8 lists the
    // backend flat, v9 as an object
    const url = 'https://wire.corp.example.org';
    const moved = await api(rig.b.internalUrl).put(`/i/domain-registration/${domain}`, {
      domain_redirect: 'backend',
      backend: { config_url: url },
      team_invite: 'not-allowed',
    });
    expect(moved.status, moved.text).toBe(204);
    expect((await registered(owner, owner.team)).body.registered_domains[0]).toMatchObject({
      authorized_team: owner.team,
      domain_redirect: 'backend',
      backend_url: url,
    });
    expect((await registered(owner, owner.team, 9)).body.registered_domains[0]).toMatchObject({
      domain_redirect: 'backend',
      backend: { config_url: url },
    });
    expect(await teamInvite(owner, domain, { team_invite: 'not-allowed' })).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });

    // giving it up: the registration goes
    const remove = (who: TeamOwner, d: string) =>
      api(rig.b.publicUrl, who.token).del(`/v8/teams/${who.team}/registered-domains/${d}`);
    expect(await remove(owner, freshDomain())).toMatchObject({ status: 404, body: wireError(404, 'not-found') });
    expect(await remove(other, domain)).toMatchObject({ status: 403, body: FORBIDDEN });
    expect((await remove(owner, domain)).status).toBe(204);
    expect((await registered(owner, owner.team)).body).toEqual({ registered_domains: [] });
    expect((await lookup(`sven@${domain}`)).body).toEqual({ domain_redirect: 'none' });
  });

  it('sends the domain to the team IdP, and SSO users signing in there need no email verification', async () => {
    const { owner, idp, idpId } = await teamWithIdp(rig.b.publicUrl, rig.b.internalUrl);
    await enableDomainRegistration(rig.b.internalUrl, owner.team);
    const domain = freshDomain();
    // accounts that sign in with a password: one personal, one of the team
    const paolo = await createUser(rig.b.publicUrl, rig.b.internalUrl, { email: `paolo@${domain}` });
    await authorizedDomain(rig.b, rig.dns, owner, domain);
    expect(await teamInvite(owner, domain, { team_invite: 'allowed', sso: crypto.randomUUID() })).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });
    expect((await teamInvite(owner, domain, { team_invite: 'allowed', sso: idpId })).status).toBe(200);

    const newcomer = `newcomer@${domain}`;
    expect((await lookup(newcomer)).body).toEqual({ domain_redirect: 'sso', sso_code: idpId });
    const token = await accessToken(rig.b.publicUrl, await signIn(rig.b.publicUrl, idp, idpId, newcomer));
    expect((await getSelf(rig.b.publicUrl, token)).body).toMatchObject({ email: newcomer });
    expect(await mailsTo(rig.b.publicUrl, newcomer)).toEqual([]);
    // the account exists, and signs in through the IdP: still sso
    expect((await lookup(newcomer)).body).toEqual({ domain_redirect: 'sso', sso_code: idpId });
    // a password account is kept from the IdP it does not sign in with
    expect((await lookup(paolo.email)).body).toEqual({ domain_redirect: 'no-registration' });

    // an address of another domain is verified as before
    const elsewhere = `someone@${freshDomain()}`;
    const other = await accessToken(rig.b.publicUrl, await signIn(rig.b.publicUrl, idp, idpId, elsewhere));
    const self = (await getSelf(rig.b.publicUrl, other)).body;
    expect(self.email).toBeUndefined();
    expect((await mailsTo(rig.b.publicUrl, elsewhere)).length).toBe(1);
    expect((await registered(owner, owner.team)).body.registered_domains).toEqual([
      expect.objectContaining({ domain, domain_redirect: 'sso', sso_code: idpId }),
    ]);
  });

  it('keeps a locked domain from teams', async () => {
    const owner = await teamOwner(rig.b.publicUrl, rig.b.internalUrl);
    await enableDomainRegistration(rig.b.internalUrl, owner.team);
    const domain = freshDomain();
    const challenge = await challengeFor(rig.b.publicUrl, domain, rig.dns);
    expect((await api(rig.b.internalUrl).post(`/i/domain-registration/${domain}/lock`)).status).toBe(204);
    expect(await verifyForTeam(rig.b.publicUrl, owner.token, domain, challenge)).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });
  });
});
