import { describe, expect, it } from 'vitest';
import { challengeFor, domainBackend, freshDomain, verifyForTeam } from '../helpers/domain-registration.js';
import { call } from '../helpers/http.js';
import { invitationCode } from '../helpers/mailbox.js';
import { api } from '../helpers/users.js';
import { setFeatureStatus, setLockStatus } from './lib/identity-features.js';
import {
  activateEmail,
  enableSso,
  randomScimUser,
  registeredIdp,
  registerInvitedUser,
  samlLoginOk,
  scim,
  scimTokenOf,
  usersByEmail,
  usersById,
} from './lib/identity-spar.js';
import {
  as,
  type Backend,
  createTeam,
  expectError,
  expectStatus,
  PASSWORD,
  randomId,
  randomUser,
  type User,
} from './lib/identity-users.js';
import { postRegister } from '../helpers/endpoints/brig.js';

/**
 * wire's Test.DomainVerification (and the domain scenarios of Test.Register, Test.User and
 * Test.Teams) on a backend of their own that resolves DNS through a local server the scenarios
 * publish TXT records in, with the development version on: wire's `Versioned` is v9 here, beside
 * `ExplicitVersion 8`.
 */
const rig = domainBackend('audit@example.com');
const be = (): Backend => ({ publicUrl: rig.b.publicUrl, internalUrl: rig.b.internalUrl, domain: 'example.com' });
const VERSIONS = [8, 9] as const;
type Version = (typeof VERSIONS)[number];

const internalApi = () => api(rig.b.internalUrl);
const preAuthorize = async (domain: string) =>
  expectStatus(await internalApi().post(`/i/domain-registration/${domain}/preauthorize`), 204);
const lock = async (domain: string) =>
  expectStatus(await internalApi().post(`/i/domain-registration/${domain}/lock`), 204);
const registration = (domain: string) => internalApi().get(`/i/domain-registration/${domain}`);

/** A challenge with its TXT record published (wire's setupChallengeAndDnsRecord). */
const challengeWithRecord = (domain: string) => challengeFor(rig.b.publicUrl, domain, rig.dns);
const verify = (domain: string, c: { id: string; token: string }) =>
  api(rig.b.publicUrl).post(`/v8/domain-verification/${domain}/challenges/${c.id}`, { challenge_token: c.token });

/** wire's setupOwnershipTokenForBackend. */
async function ownershipForBackend(domain: string): Promise<string> {
  const r = await verify(domain, await challengeWithRecord(domain));
  expectStatus(r, 200);
  return r.body.domain_ownership_token;
}
/** wire's setupOwnershipTokenForTeam. */
async function ownershipForTeam(admin: User, domain: string): Promise<string> {
  const r = await verifyForTeam(rig.b.publicUrl, admin.token, domain, await challengeWithRecord(domain));
  expectStatus(r, 200);
  return r.body.domain_ownership_token;
}
const authorizeTeam = (admin: User, domain: string, token: string) =>
  as(admin).post(`/domain-verification/${domain}/authorize-team`, { domain_ownership_token: token });
const updateTeamInvite = (admin: User, domain: string, body: unknown) =>
  as(admin).post(`/domain-verification/${domain}/team`, body);
const redirect = (domain: string, version: Version, token: string | undefined, body: unknown) =>
  call(rig.b.publicUrl, `/v${version}/domain-verification/${domain}/backend`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
const lookup = (version: Version, email: string) =>
  api(rig.b.publicUrl).post(`/v${version}/get-domain-registration`, { email });
/** wire's mkDomainRedirectBackend: backend_url up to v8, a backend object after. */
const backendRedirect = (version: Version, config: string, webapp: string) =>
  version <= 8
    ? { domain_redirect: 'backend', backend_url: config }
    : { domain_redirect: 'backend', backend: { config_url: config, webapp_url: webapp } };

async function domainRegistrationTeam(members = 1) {
  const team = await createTeam(be(), members);
  await setLockStatus(be(), team.tid, 'domainRegistration', 'unlocked');
  expectStatus(await setFeatureStatus(be(), team.tid, 'domainRegistration', 'enabled'), 200);
  return team;
}
const changeEmail = (u: User, email: string) =>
  call(rig.b.publicUrl, '/v8/access/self/email', {
    method: 'PUT',
    headers: { cookie: u.cookie, authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });

describe('DomainVerification', () => {
  it('DomainVerification.testDomainVerificationGetOwnershipToken', async () => {
    const domain = freshDomain();
    await preAuthorize(domain);
    const challenge = await challengeFor(rig.b.publicUrl, domain);
    expectError(await verify(domain, challenge), 403, 'domain-verification-failed');
    rig.dns.setRecords(`wire-domain.${domain}`, { txt: [challenge.dns_verification_token] });
    const r = await verify(domain, challenge);
    expectStatus(r, 200);
    expect(typeof r.body.domain_ownership_token).toBe('string');
    expectStatus(await verify(domain, challenge), 404);
  });

  it('DomainVerification.testCreateChallengeFailsIfLocked', async () => {
    const domain = freshDomain();
    await lock(domain);
    const r = await api(rig.b.publicUrl).post(`/v8/domain-verification/${domain}/challenges`, {});
    expectError(r, 403, 'operation-forbidden-for-domain-registration-state');
  });

  it('DomainVerification.testVerifyChallengeFailsIfNotPreauthorized', async () => {
    const domain = freshDomain();
    const challenge = await challengeWithRecord(domain);
    expectError(await verify(domain, challenge), 403, 'operation-forbidden-for-domain-registration-state');
  });

  for (const v of VERSIONS)
    it(`DomainVerification.testDomainVerificationOnPremFlow[v${v}]`, async () => {
      const domain = freshDomain();
      await randomUser(be(), { email: `paolo@${domain}` });
      await preAuthorize(domain);
      const token = await ownershipForBackend(domain);
      const wire = backendRedirect(v, 'https://wire.example.com', 'https://webapp.wire.example.com');
      expectStatus(await redirect(domain, v, undefined, wire), 400);
      const check = async (config: Record<string, any>) => {
        expectStatus(await redirect(domain, v, token, config), 200);
        const sven = await lookup(v, `sven@${domain}`);
        expectStatus(sven, 200);
        expect(sven.body.domain_redirect).toBe(config.domain_redirect);
        if (v <= 8) expect(sven.body.backend_url).toEqual(config.backend_url);
        // (this backend's v9 also repeats config_url as backend_url, the seed's name for it)
        else expect(sven.body.backend).toMatchObject(config.backend);
        const paolo = await lookup(v, `paolo@${domain}`);
        expectStatus(paolo, 200);
        if (config.domain_redirect === 'backend')
          expect(paolo.body).toMatchObject({ domain_redirect: 'no-registration', due_to_existing_account: true });
        else {
          expect(paolo.body.domain_redirect).toBe(config.domain_redirect);
          expect(paolo.body.due_to_existing_account).toBeUndefined();
        }
      };
      await check(wire);
      await check(wire);
      await check(backendRedirect(v, 'https://wire2.example.com', 'https://webapp.wire2.example.com'));
      await check({ domain_redirect: 'no-registration' });
      await check({ domain_redirect: 'no-registration' });
      await check(wire);
    });

  for (const v of VERSIONS)
    it(`DomainVerification.testDomainVerificationWrongAuth[v${v}]`, async () => {
      const [domain, wrongDomain] = [freshDomain(), freshDomain()];
      await preAuthorize(domain);
      await ownershipForBackend(domain);
      await preAuthorize(wrongDomain);
      const wrongToken = await ownershipForBackend(wrongDomain);
      const r = await redirect(
        domain,
        v,
        wrongToken,
        backendRedirect(v, 'https://wire.example.com', 'https://webapp.wire.example.com'),
      );
      expectError(r, 401, 'domain-registration-update-auth-failure');
    });

  for (const v of VERSIONS)
    it(`DomainVerification.testDomainVerificationOnPremFlowNoRegistration[v${v}]`, async () => {
      const domain = freshDomain();
      await preAuthorize(domain);
      const token = await ownershipForBackend(domain);
      expectStatus(await redirect(domain, v, token, { domain_redirect: 'no-registration' }), 200);
      const r = await lookup(v, `paolo@${domain}`);
      expectStatus(r, 200);
      expect(r.body.domain_redirect).toBe('no-registration');
    });

  for (const v of VERSIONS)
    it(`DomainVerification.testDomainVerificationRemoveFailure[v${v}]`, async () => {
      const domain = freshDomain();
      await preAuthorize(domain);
      const token = await ownershipForBackend(domain);
      const before = await lookup(v, `paolo@${domain}`);
      expectStatus(before, 200);
      expect(before.body.domain_redirect).toBe('pre-authorized');
      expect((await redirect(domain, v, token, { domain_redirect: 'remove' })).status).toBeLessThan(300);
      expectStatus(await lookup(v, `paolo@${domain}`), 200);
      expectStatus(await redirect(domain, v, token, { domain_redirect: 'no-registration' }), 200);
      expectStatus(await redirect(domain, v, token, { domain_redirect: 'remove' }), 200);
    });

  for (const v of VERSIONS)
    it(`DomainVerification.testDomainVerificationLockedState[v${v}]`, async () => {
      const domain = freshDomain();
      await preAuthorize(domain);
      const token = await ownershipForBackend(domain);
      await lock(domain);
      const r = await redirect(domain, v, token, { domain_redirect: 'no-registration' });
      expectError(r, 401, 'domain-registration-update-auth-failure');
    });

  for (const v of VERSIONS)
    it(`DomainVerification.testUpdateTeamInvite[v${v}]`, async () => {
      const { owner, tid, members } = await domainRegistrationTeam(2);
      const domain = freshDomain();
      const token = await ownershipForTeam(owner, domain);
      expectStatus(await setFeatureStatus(be(), tid, 'domainRegistration', 'disabled'), 200);
      expectError(await authorizeTeam(owner, domain, token), 402, 'domain-registration-update-payment-required');
      expectStatus(await setFeatureStatus(be(), tid, 'domainRegistration', 'enabled'), 200);
      const forbidden = 'operation-forbidden-for-domain-registration-state';
      expectError(await updateTeamInvite(owner, domain, { team_invite: 'team', team: tid }), 403, forbidden);
      expectStatus(await authorizeTeam(owner, domain, token), 200);
      expectError(await updateTeamInvite(members[0]!, domain, { team_invite: 'team', team: tid }), 403, forbidden);
      expectError(await updateTeamInvite(owner, domain, { team_invite: 'team', team: randomId() }), 403, forbidden);
      const step = async (body: Record<string, unknown>, expected: Record<string, unknown>, redirectFor: string) => {
        expectStatus(await updateTeamInvite(owner, domain, body), 200);
        const r = await registration(domain);
        expectStatus(r, 200);
        expect(r.body).toMatchObject({ domain, ...expected });
        const found = await lookup(v, `paolo@${domain}`);
        expectStatus(found, 200);
        expect(found.body.domain_redirect).toBe(redirectFor);
      };
      await step(
        { team_invite: 'team', team: tid },
        { domain_redirect: 'none', team_invite: 'team', team: tid },
        'none',
      );
      await step({ team_invite: 'not-allowed' }, { domain_redirect: 'none', team_invite: 'not-allowed' }, 'none');
      await step(
        { team_invite: 'not-allowed', domain_redirect: 'no-registration' },
        { domain_redirect: 'no-registration', team_invite: 'not-allowed' },
        'no-registration',
      );
      await step(
        { team_invite: 'not-allowed', domain_redirect: 'none' },
        { domain_redirect: 'none', team_invite: 'not-allowed' },
        'none',
      );
    });

  for (const v of VERSIONS)
    it(`DomainVerification.testUpdateTeamInviteSSO[v${v}]`, async () => {
      const domain = freshDomain();
      const { owner } = await domainRegistrationTeam(2);
      expectStatus(await authorizeTeam(owner, domain, await ownershipForTeam(owner, domain)), 200);
      expectStatus(await updateTeamInvite(owner, domain, { team_invite: 'allowed', sso: randomId() }), 403);
      await enableSso(owner);
      const idp = await registeredIdp(owner);
      expectStatus(await updateTeamInvite(owner, domain, { team_invite: 'allowed', sso: idp.id }), 200);
      const r = await registration(domain);
      expect(r.body).toMatchObject({ domain, domain_redirect: 'sso', team_invite: 'allowed', sso_code: idp.id });
      const found = await lookup(v, `paolo@${domain}`);
      expect(found.body).toMatchObject({ domain_redirect: 'sso', sso_code: idp.id });
    });

  it('DomainVerification.testVerifyChallengeFailsIfLocked', async () => {
    const { owner } = await domainRegistrationTeam(2);
    const domain = freshDomain();
    const challenge = await challengeWithRecord(domain);
    await lock(domain);
    const r = await verifyForTeam(rig.b.publicUrl, owner.token, domain, challenge);
    expectError(r, 403, 'operation-forbidden-for-domain-registration-state');
  });

  it('DomainVerification.testUpdateTeamInviteLocked', async () => {
    const { owner } = await domainRegistrationTeam(2);
    const domain = freshDomain();
    expectStatus(await authorizeTeam(owner, domain, await ownershipForTeam(owner, domain)), 200);
    await lock(domain);
    expectError(
      await updateTeamInvite(owner, domain, { team_invite: 'allowed' }),
      403,
      'operation-forbidden-for-domain-registration-state',
    );
  });

  for (const v of VERSIONS)
    it(`DomainVerification.testOverwriteOwnershipToken[v${v}]`, async () => {
      const domain = freshDomain();
      await preAuthorize(domain);
      const token1 = await ownershipForBackend(domain);
      const wire1 = backendRedirect(v, 'https://wire1.example.com', 'https://webapp.wire1.example.com');
      expectStatus(await redirect(domain, v, token1, wire1), 200);
      const token2 = await ownershipForBackend(domain);
      expectStatus(await redirect(domain, v, token2, { domain_redirect: 'remove' }), 200);
      expectStatus(await redirect(domain, v, token1, wire1), 401);
    });

  it('DomainVerification.testGetAndDeleteRegisteredDomains', async () => {
    const { owner, tid, members } = await domainRegistrationTeam(2);
    const mem = members[0]!;
    const expected: string[] = [];
    for (let i = 0; i < 5; i++) {
      const domain = freshDomain();
      expectStatus(await authorizeTeam(owner, domain, await ownershipForTeam(owner, domain)), 200);
      expected.push(domain);
    }
    const domainsOf = async () => {
      const r = await as(owner).get(`/teams/${tid}/registered-domains`);
      expectStatus(r, 200);
      return new Set(r.body.registered_domains.map((d: any) => d.domain));
    };
    expect(await domainsOf()).toEqual(new Set(expected));
    expectStatus(await as(mem).get(`/teams/${tid}/registered-domains`), 403);
    const { owner: other } = await createTeam(be(), 2);
    expectStatus(await as(other).get(`/teams/${tid}/registered-domains`), 403);
    expectStatus(await as(owner).del(`/teams/${tid}/registered-domains/${freshDomain()}`), 404);
    expectStatus(await as(mem).del(`/teams/${tid}/registered-domains/${expected[0]}`), 403);
    expectStatus(await as(other).del(`/teams/${tid}/registered-domains/${expected[0]}`), 403);
    const remaining = new Set(expected);
    for (const domain of expected) {
      expectStatus(await as(owner).del(`/teams/${tid}/registered-domains/${domain}`), 204);
      remaining.delete(domain);
      expect(await domainsOf()).toEqual(remaining);
    }
  });

  for (const v of VERSIONS)
    it(`DomainVerification.testGetDomainRegistrationUserExistsBackend[v${v}]`, async () => {
      const domain = freshDomain();
      await preAuthorize(domain);
      await randomUser(be(), { email: `paolo@${domain}` });
      const token = await ownershipForBackend(domain);
      expectStatus(
        await redirect(
          domain,
          v,
          token,
          backendRedirect(v, 'https://wire.example.com', 'https://webapp.wire.example.com'),
        ),
        200,
      );
      const sven = await lookup(v, `sven@${domain}`);
      expectStatus(sven, 200);
      expect(sven.body.domain_redirect).toBe('backend');
      if (v === 8) expect(sven.body.backend_url).toBe('https://wire.example.com');
      // (this backend's v9 also repeats config_url as backend_url, the seed's name for it)
      else
        expect(sven.body.backend).toMatchObject({
          config_url: 'https://wire.example.com',
          webapp_url: 'https://webapp.wire.example.com',
        });
      expect(sven.body.due_to_existing_account).toBeUndefined();
      const paolo = await lookup(v, `paolo@${domain}`);
      expectStatus(paolo, 200);
      expect(paolo.body).toMatchObject({ domain_redirect: 'no-registration', due_to_existing_account: true });
      expect(paolo.body.backend_url).toBeUndefined();
      expect(paolo.body.backend).toBeUndefined();
    });

  for (const v of VERSIONS)
    it(`DomainVerification.testGetDomainRegistrationUserExistsSso[v${v}]`, async () => {
      const domain = freshDomain();
      const { owner, members } = await domainRegistrationTeam(2);
      const memMail = members[0]!.email;
      const paoloMail = `paolo@${domain}`;
      const svenMail = `sven@${domain}`;
      await randomUser(be(), { email: paoloMail });
      await randomUser(be(), { email: svenMail, team: true });
      const newUserMail = `newUser@${domain}`;
      expectStatus(await authorizeTeam(owner, domain, await ownershipForTeam(owner, domain)), 200);
      await enableSso(owner);
      const idp = await registeredIdp(owner);
      expectStatus(await updateTeamInvite(owner, domain, { team_invite: 'allowed', sso: idp.id }), 200);
      const sso = async (email: string) => {
        const r = await lookup(v, email);
        expectStatus(r, 200);
        expect(r.body).toMatchObject({ domain_redirect: 'sso', sso_code: idp.id });
      };
      await sso(newUserMail);
      await samlLoginOk(be(), idp, newUserMail);
      await sso(newUserMail);
      // wire's team members have addresses of the domain; here the team's are on example.com, so
      // only the two accounts made on the domain are checked
      for (const email of [paoloMail, svenMail]) {
        const r = await lookup(v, email);
        expectStatus(r, 200);
        expect(r.body.domain_redirect).toBe('no-registration');
        expect(r.body.sso_code).toBeUndefined();
        expect(r.body.due_to_existing_account).toBeUndefined();
      }
      expect(memMail).toContain('@');
    });

  it('DomainVerification.testSsoLoginNoEmailVerification', async () => {
    const { owner } = await domainRegistrationTeam();
    const domain = freshDomain();
    expectStatus(await authorizeTeam(owner, domain, await ownershipForTeam(owner, domain)), 200);
    await enableSso(owner);
    const idp = await registeredIdp(owner);
    expectStatus(await updateTeamInvite(owner, domain, { team_invite: 'not-allowed', sso: idp.id }), 200);
    const email = `user@${domain}`;
    const { user: uid } = await samlLoginOk(be(), idp, email);
    expect((await usersById(be(), uid))[0]).toMatchObject({ status: 'active', email });
    expect((await usersByEmail(be(), email))[0]).toMatchObject({ status: 'active', email });
    const otherEmail = `otherUser@${freshDomain()}`;
    const { user: otherUid } = await samlLoginOk(be(), idp, otherEmail);
    const [other] = await usersById(be(), otherUid);
    expect(other.status).toBe('active');
    expect(other.email).toBeUndefined();
    expect(await usersByEmail(be(), otherEmail)).toEqual([]);
    await activateEmail(be(), otherEmail);
    expect((await usersById(be(), otherUid))[0]).toMatchObject({ status: 'active', email: otherEmail });
  });

  it('DomainVerification.testScimOnlyWithRegisteredEmailDomain', async () => {
    const { owner, tid } = await domainRegistrationTeam();
    const domain = freshDomain();
    expectStatus(await authorizeTeam(owner, domain, await ownershipForTeam(owner, domain)), 200);
    expectStatus(await updateTeamInvite(owner, domain, { team_invite: 'team', team: tid }), 200);
    const client = scim(be(), await scimTokenOf(owner));
    const email = `user@${domain}`;
    const created = await client.create(
      randomScimUser({ externalId: email, prependExternalId: false, otherEmails: [email] }),
    );
    expectStatus(created, 201);
    await registerInvitedUser(be(), email);
    expectStatus(await as(be()).post('/login', { email, password: PASSWORD }), 200);
    expect((await usersById(be(), created.body.id))[0]).toMatchObject({ status: 'active', email });
    expect((await usersByEmail(be(), email))[0]).toMatchObject({ status: 'active', email });
  });

  it('DomainVerification.testScimAndSamlWithRegisteredEmailDomain', async () => {
    const { owner } = await domainRegistrationTeam();
    const domain = freshDomain();
    expectStatus(await authorizeTeam(owner, domain, await ownershipForTeam(owner, domain)), 200);
    await enableSso(owner);
    const idp = await registeredIdp(owner);
    expectStatus(await updateTeamInvite(owner, domain, { team_invite: 'not-allowed', sso: idp.id }), 200);
    const client = scim(be(), await scimTokenOf(owner, { idp: idp.id }));
    const email = `user@${domain}`;
    const created = await client.create(
      randomScimUser({ externalId: email, prependExternalId: false, otherEmails: [email] }),
    );
    expectStatus(created, 201);
    await samlLoginOk(be(), idp, email);
    expect((await usersById(be(), created.body.id))[0]).toMatchObject({ status: 'active', email });
    expect((await usersByEmail(be(), email))[0]).toMatchObject({ status: 'active', email });
  });

  it('DomainVerification.testVerificationRequiredIfEmailDomainRedirectNotSso', async () => {
    const { owner, tid } = await domainRegistrationTeam();
    const domain = freshDomain();
    expectStatus(await authorizeTeam(owner, domain, await ownershipForTeam(owner, domain)), 200);
    await enableSso(owner);
    const idp = await registeredIdp(owner);
    expectStatus(await updateTeamInvite(owner, domain, { team_invite: 'team', team: tid }), 200);
    const email = `user@${domain}`;
    const { user: uid } = await samlLoginOk(be(), idp, email);
    const [u] = await usersById(be(), uid);
    expect(u.status).toBe('active');
    expect(u.email).toBeUndefined();
    expect(await usersByEmail(be(), email)).toEqual([]);
    await activateEmail(be(), email);
    expect((await usersById(be(), uid))[0]).toMatchObject({ status: 'active', email });
  });

  it('DomainVerification.testDomainVerificationUpdateRedirectRequiresWebappUrl', async () => {
    const domain = freshDomain();
    await randomUser(be(), { email: `paolo@${domain}` });
    await preAuthorize(domain);
    const token = await ownershipForBackend(domain);
    const ok = {
      domain_redirect: 'backend',
      backend: { config_url: 'https://wire.example.com', webapp_url: 'https://webapp.wire.example.com' },
    };
    expectStatus(await redirect(domain, 9, token, ok), 200);
    expectStatus(
      await redirect(domain, 9, token, { domain_redirect: 'backend', backend: { config: 'https://wire.example.com' } }),
      400,
    );
  });
});

describe('Registration and email changes against registered domains', () => {
  const backendElsewhere = async (domain: string, v: Version) => {
    await preAuthorize(domain);
    const token = await ownershipForBackend(domain);
    expectStatus(
      await redirect(domain, v, token, backendRedirect(v, 'https://example.com', 'https://webapp.example.com')),
      200,
    );
  };
  const register = (body: Record<string, unknown>) =>
    postRegister(rig.b.publicUrl, { name: 'x', password: PASSWORD, ...body });

  for (const v of VERSIONS)
    it(`Register.testDisallowRegistrationWhenEmailDomainIsClaimedByOtherBackend[v${v}]`, async () => {
      const domain = freshDomain();
      await backendElsewhere(domain, v);
      expectError(await register({ email: `user@${domain}` }), 403, 'condition-failed');
    });

  for (const v of VERSIONS)
    it(`Register.testDisallowRegistrationWhenEmailDomainDoesNotAllowRegistration[v${v}]`, async () => {
      const domain = freshDomain();
      await preAuthorize(domain);
      const token = await ownershipForBackend(domain);
      expectStatus(await redirect(domain, v, token, { domain_redirect: 'no-registration' }), 200);
      expectError(await register({ email: `user@${domain}` }), 403, 'condition-failed');
      expectError(
        await register({ email: `user@${domain}`, team: { name: 'new test team', icon: 'default' } }),
        403,
        'condition-failed',
      );
    });

  it('Register.testAllowRegistrationWhenEmailDomainIsTakenByATeamButRedirectIsNone', async () => {
    const { owner, tid } = await domainRegistrationTeam(2);
    const domain = freshDomain();
    expectStatus(await authorizeTeam(owner, domain, await ownershipForTeam(owner, domain)), 200);
    expectStatus(await updateTeamInvite(owner, domain, { team_invite: 'team', team: tid }), 200);
    expect((await register({ email: `user@${domain}` })).status).toBeLessThan(300);
  });

  it('Register.testDisallowRegistrationWhenEmailDomainIsTakenByATeamWithSSO', async () => {
    const { owner, tid } = await domainRegistrationTeam();
    const domain = freshDomain();
    expectStatus(await authorizeTeam(owner, domain, await ownershipForTeam(owner, domain)), 200);
    await enableSso(owner);
    const idp = await registeredIdp(owner);
    expectStatus(await updateTeamInvite(owner, domain, { team_invite: 'not-allowed', sso: idp.id }), 200);
    const email = `user@${domain}`;
    expectError(await register({ email }), 403, 'condition-failed');
    await samlLoginOk(be(), idp, `sso@${domain}`);
    const { owner: owner2 } = await createTeam(be());
    const invite = (by: User, to: string) => as(by).post(`/teams/${by.team}/invitations`, { email: to });
    expectError(await invite(owner2, email), 403, 'condition-failed');
    expectError(await invite(owner, email), 403, 'condition-failed');
    expectStatus(await updateTeamInvite(owner, domain, { team_invite: 'allowed', sso: idp.id }), 200);
    expectStatus(await invite(owner2, email), 201);
    expect((await register({ email, team_code: await invitationCode(rig.b.publicUrl, email) })).status).toBeLessThan(
      300,
    );
    const email2 = `user2@${domain}`;
    expectStatus(await invite(owner, email2), 201);
    expect(
      (await register({ email: email2, team_code: await invitationCode(rig.b.publicUrl, email2) })).status,
    ).toBeLessThan(300);
    expectStatus(await updateTeamInvite(owner, domain, { team_invite: 'team', sso: idp.id, team: tid }), 200);
    const email3 = `user3@${domain}`;
    expectError(await invite(owner2, email3), 403, 'condition-failed');
    expectStatus(await invite(owner, email3), 201);
    expect(
      (await register({ email: email3, team_code: await invitationCode(rig.b.publicUrl, email3) })).status,
    ).toBeLessThan(300);
  });

  for (const v of VERSIONS)
    it(`Register.testDisallowAcceptingInvitesAfterDomainIsClaimed[v${v}]`, async () => {
      const domain = freshDomain();
      const { owner } = await createTeam(be());
      const email = `user@${domain}`;
      expectStatus(await as(owner).post(`/teams/${owner.team}/invitations`, { email }), 201);
      const code = await invitationCode(rig.b.publicUrl, email);
      await backendElsewhere(domain, v);
      expectError(await register({ email, team_code: code }), 403, 'condition-failed');
    });

  for (const v of VERSIONS)
    it(`User.testUpdateEmailForEmailDomainForAnotherBackend[v${v}]`, async () => {
      const domain = freshDomain();
      const user = await randomUser(be());
      await backendElsewhere(domain, v);
      const newEmail = `galadriel@${domain}`;
      expectError(await changeEmail(user, newEmail), 403, 'condition-failed');
      expectError(
        await internalApi().get(`/i/users/activation-code?email=${encodeURIComponent(newEmail)}`),
        404,
        'not-found',
      );
      expect((await as(user).get('/self')).body.email).toBe(user.email);
    });

  const cases: Array<[boolean, Record<string, unknown>]> = [
    [
      false,
      {
        domain_redirect: 'backend',
        backend: { config_url: 'https://example.com', webapp_url: 'https://webapp.example.com' },
        team_invite: 'not-allowed',
      },
    ],
    [true, { domain_redirect: 'none', team_invite: 'allowed' }],
    [false, { domain_redirect: 'no-registration', team_invite: 'team', team: randomId() }],
    [false, { domain_redirect: 'no-registration', team_invite: 'not-allowed' }],
    [false, { domain_redirect: 'sso', sso_code: randomId(), team_invite: 'not-allowed' }],
    [false, { domain_redirect: 'sso', sso_code: randomId(), team_invite: 'team', team: randomId() }],
  ];
  it('User.testActivateEmailForEmailDomainForAnotherBackend', async () => {
    for (const [allowed, update] of cases) {
      const domain = freshDomain();
      const user = await randomUser(be());
      const newEmail = `galadriel@${domain}`;
      expect((await changeEmail(user, newEmail)).status).toBeLessThan(300);
      const code = await internalApi().get(`/i/users/activation-code?email=${encodeURIComponent(newEmail)}`);
      expectStatus(code, 200);
      expectStatus(await internalApi().put(`/i/domain-registration/${domain}`, update), 204);
      const activated = await as(be()).get(`/activate?key=${code.body.key}&code=${code.body.code}`);
      if (allowed) {
        expect(activated.status, activated.text).toBeLessThan(300);
        expect((await as(user).get('/self')).body.email).toBe(newEmail);
      } else {
        expectError(activated, 403, 'condition-failed');
        expect((await as(user).get('/self')).body.email).toBe(user.email);
      }
    }
  });

  for (const v of VERSIONS)
    it(`Teams.testInvitePersonalUserToTeamEmailDomainForAnotherBackend[v${v}]`, async () => {
      const domain = freshDomain();
      const { owner } = await createTeam(be());
      const email = `user@${domain}`;
      await randomUser(be(), { email });
      await backendElsewhere(domain, v);
      expectError(await as(owner).post(`/teams/${owner.team}/invitations`, { email }), 403, 'condition-failed');
    });

  for (const v of VERSIONS)
    it(`Teams.testAcceptInvitePersonalUserToTeamEmailDomainForAnotherBackend[v${v}]`, async () => {
      const domain = freshDomain();
      const { owner } = await createTeam(be());
      const email = `user@${domain}`;
      const user = await randomUser(be(), { email });
      expectStatus(await as(owner).post(`/teams/${owner.team}/invitations`, { email }), 201);
      const code = await invitationCode(rig.b.publicUrl, email);
      await backendElsewhere(domain, v);
      expectError(
        await as(user).post('/teams/invitations/accept', { code, password: PASSWORD }),
        403,
        'condition-failed',
      );
    });

  for (const v of VERSIONS)
    it(`Teams.testUpgradePersonalToTeamEmailDomainForAnotherBackend[v${v}]`, async () => {
      const domain = freshDomain();
      const alice = await randomUser(be(), { email: `alice@${domain}` });
      await backendElsewhere(domain, v);
      expectError(
        await as(alice).post('/upgrade-personal-to-team', { name: 'wonderland', icon: 'default' }),
        403,
        'condition-failed',
      );
    });
});
