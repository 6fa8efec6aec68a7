import { describe, expect, it } from 'vitest';
import { freshDomain } from '../helpers/domain-registration.js';
import { expectError, expectStatus, internal, ownBackend } from './lib/identity-users.js';

/** wire's Test.EnterpriseLogin: the operators' internal API of domain registrations. */
const own = ownBackend();
const reg = (domain: string) => `/i/domain-registration/${domain}`;
const get = (domain: string) => internal(own).get(reg(domain));
const action = (domain: string, a: 'lock' | 'unlock' | 'preauthorize' | 'unauthorize') =>
  internal(own).post(`${reg(domain)}/${a}`);
const update = (domain: string, body: unknown) => internal(own).put(reg(domain), body);
const TEAM = '3bc23f21-dc03-4922-9563-c3beedf895db';
const SSO = 'f82bad56-df61-49c0-bc9a-dc45c8ee1000';
const backend = { config_url: 'https://example.com', webapp_url: 'https://webapp.example.com' };

async function expectRegistration(domain: string, fields: Record<string, unknown>) {
  const r = await get(domain);
  expectStatus(r, 200);
  expect(r.body).toMatchObject({ domain, ...fields });
  return r.body;
}

describe('EnterpriseLogin', () => {
  it('EnterpriseLogin.testDomainRegistrationLock', async () => {
    const domain = freshDomain();
    expectStatus(await get(domain), 404);
    expectStatus(await action(domain, 'lock'), 204);
    expectStatus(await action(domain, 'lock'), 204);
    await expectRegistration(domain, { domain_redirect: 'locked', team_invite: 'allowed' });
    expectStatus(await action(domain, 'unlock'), 204);
    await expectRegistration(domain, { domain_redirect: 'none', team_invite: 'allowed' });
  });

  it('EnterpriseLogin.testDomainRegistrationLockPreviousValueOverwritten', async () => {
    const domain = freshDomain();
    expectStatus(await action(domain, 'preauthorize'), 204);
    await expectRegistration(domain, { domain_redirect: 'pre-authorized' });
    expectStatus(await action(domain, 'lock'), 204);
    await expectRegistration(domain, { domain_redirect: 'locked' });
  });

  it('EnterpriseLogin.testDomainRegistrationUnlockErrorIfNotLocked', async () => {
    const domain = freshDomain();
    expectStatus(await action(domain, 'preauthorize'), 204);
    await expectRegistration(domain, { domain_redirect: 'pre-authorized' });
    expectError(await action(domain, 'unlock'), 403, 'operation-forbidden-for-domain-registration-state');
  });

  it('EnterpriseLogin.testDomainRegistrationPreAuthorize', async () => {
    const domain = freshDomain();
    expectStatus(await get(domain), 404);
    expectStatus(await action(domain, 'preauthorize'), 204);
    expectStatus(await action(domain, 'preauthorize'), 204);
    await expectRegistration(domain, { domain_redirect: 'pre-authorized', team_invite: 'allowed' });
  });

  it('EnterpriseLogin.testDomainRegistrationPreAuthorizeFailsIfLocked', async () => {
    const domain = freshDomain();
    expectStatus(await action(domain, 'lock'), 204);
    expectError(await action(domain, 'preauthorize'), 403, 'operation-forbidden-for-domain-registration-state');
    await expectRegistration(domain, { domain_redirect: 'locked' });
    expectStatus(await action(domain, 'unlock'), 204);
    expectStatus(await action(domain, 'preauthorize'), 204);
    await expectRegistration(domain, { domain_redirect: 'pre-authorized', team_invite: 'allowed' });
  });

  it('EnterpriseLogin.testDomainRegistrationPreAuthorizeDoesNotAlterTeamInvite', async () => {
    const domain = freshDomain();
    expectStatus(await get(domain), 404);
    expectStatus(await update(domain, { domain_redirect: 'none', team_invite: 'team', team: TEAM }), 204);
    expectStatus(await action(domain, 'preauthorize'), 204);
    const r = await expectRegistration(domain, { domain_redirect: 'pre-authorized', team_invite: 'team', team: TEAM });
    expect(r.backend).toBeUndefined();
    expect(r.backend_url).toBeUndefined();
  });

  it('EnterpriseLogin.testDomainRegistrationQueriesDoNotCreateEntry', async () => {
    const domain = freshDomain();
    expectStatus(await get(domain), 404);
    expectStatus(await action(domain, 'unlock'), 404);
    expectStatus(await action(domain, 'unauthorize'), 404);
    expectStatus(await get(domain), 404);
  });

  it('EnterpriseLogin.testDomainRegistrationUpdate', async () => {
    const domain = freshDomain();
    expectStatus(await get(domain), 404);
    for (const body of [
      { domain_redirect: 'backend', backend, team_invite: 'not-allowed' },
      { domain_redirect: 'sso', sso_code: SSO, team_invite: 'allowed' },
      { domain_redirect: 'no-registration', team_invite: 'team', team: TEAM },
    ] as Array<Record<string, any>>) {
      expectStatus(await update(domain, body), 204);
      expectStatus(await update(domain, body), 204);
      const r = await expectRegistration(domain, {
        domain_redirect: body.domain_redirect,
        team_invite: body.team_invite,
      });
      expect(r.backend?.config_url).toEqual(body.backend?.config_url);
      expect(r.backend?.webapp_url).toEqual(body.backend?.webapp_url);
      expect(r.sso_code).toEqual(body.sso_code);
      expect(r.team).toEqual(body.team);
    }
  });

  it('EnterpriseLogin.testDomainRegistrationUpdateInvalidCases', async () => {
    const domain = freshDomain();
    for (const body of [
      { domain_redirect: 'locked', team_invite: 'not-allowed' },
      { domain_redirect: 'locked', team_invite: 'team', team: TEAM },
      { domain_redirect: 'backend', backend, team_invite: 'team', team: TEAM },
      { domain_redirect: 'backend', backend, team_invite: 'allowed' },
    ])
      expectError(await update(domain, body), 403, 'operation-forbidden-for-domain-registration-state');
  });

  it('EnterpriseLogin.testDomainRegistrationPreAuthorizedToUnAuthorize', async () => {
    const domain = freshDomain();
    expectStatus(await update(domain, { domain_redirect: 'pre-authorized', team_invite: 'allowed' }), 204);
    expectStatus(await action(domain, 'unauthorize'), 204);
    expectStatus(await action(domain, 'unauthorize'), 204);
    await expectRegistration(domain, { domain_redirect: 'none', team_invite: 'allowed' });
  });

  it('EnterpriseLogin.testDomainRegistrationBackendToUnAuthorize', async () => {
    const domain = freshDomain();
    expectStatus(await update(domain, { domain_redirect: 'backend', backend, team_invite: 'not-allowed' }), 204);
    expectStatus(await action(domain, 'unauthorize'), 204);
    await expectRegistration(domain, { domain_redirect: 'none', team_invite: 'not-allowed' });
    expectStatus(await action(domain, 'unauthorize'), 204);
  });

  it('EnterpriseLogin.testDomainRegistrationNoRegistrationToUnAuthorize', async () => {
    const domain = freshDomain();
    expectStatus(await update(domain, { domain_redirect: 'no-registration', team_invite: 'allowed' }), 204);
    expectStatus(await action(domain, 'unauthorize'), 204);
    expectStatus(await action(domain, 'unauthorize'), 204);
    await expectRegistration(domain, { domain_redirect: 'none', team_invite: 'allowed' });
  });

  it('EnterpriseLogin.testDomainRegistrationUnAuthorizeFailureWhenLocked', async () => {
    const domain = freshDomain();
    expectStatus(await update(domain, { domain_redirect: 'locked', team_invite: 'allowed' }), 204);
    expectStatus(await action(domain, 'unauthorize'), 403);
    await expectRegistration(domain, { domain_redirect: 'locked', team_invite: 'allowed' });
  });

  it('EnterpriseLogin.testDomainRegistrationUnAuthorizeFailureWhenSso', async () => {
    const domain = freshDomain();
    const body = { domain_redirect: 'sso', sso_code: SSO, team_invite: 'team', team: TEAM };
    expectStatus(await update(domain, body), 204);
    expectStatus(await action(domain, 'unauthorize'), 403);
    await expectRegistration(domain, { domain_redirect: 'sso', team_invite: 'team' });
  });

  it('EnterpriseLogin.testDomainRegistrationDelete', async () => {
    const domain = freshDomain();
    expectStatus(await update(domain, { domain_redirect: 'sso', sso_code: SSO, team_invite: 'team', team: TEAM }), 204);
    expectStatus(await internal(own).del(reg(domain)), 204);
    expectStatus(await get(domain), 404);
    expectStatus(await internal(own).del(reg(domain)), 204);
  });
});
