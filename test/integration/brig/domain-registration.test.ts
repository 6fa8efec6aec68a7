import { describe, expect, it } from 'vitest';
import { call, postJson, wireError } from '../../helpers/http.js';
import { domainBackend, freshDomain } from '../../helpers/domain-registration.js';
import { mailsTo } from '../../helpers/mailbox.js';
import { activationCode } from '../../helpers/users.js';
import { postActivateSend, postRegister } from '../../helpers/endpoints/brig.js';

const AUDIT = 'audit@example.com';

describe('brig: domain registration, operated and proven through DNS', () => {
  const rig = domainBackend(AUDIT);

  const internal = (method: string, path: string, body?: unknown) =>
    call(rig.b.internalUrl, path, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  const lookup = (email: string, v = 8) => postJson(rig.b.publicUrl, `/v${v}/get-domain-registration`, { email });

  /** The on-premises owner's way: a challenge, the TXT record, the proof; the ownership token. */
  async function prove(domain: string): Promise<string> {
    const challenge = await postJson(rig.b.publicUrl, `/v8/domain-verification/${domain}/challenges`, {});
    expect(challenge.status, challenge.text).toBe(200);
    expect(challenge.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const verify = (token: string) =>
      postJson(rig.b.publicUrl, `/v8/domain-verification/${domain}/challenges/${challenge.body.id}`, {
        challenge_token: token,
      });
    expect(await verify(challenge.body.token)).toMatchObject({
      status: 403,
      body: wireError(403, 'domain-verification-failed'),
    });
    rig.dns.setRecords(`wire-domain.${domain}`, { txt: ['v=spf1 -all', challenge.body.dns_verification_token] });
    expect(await verify('A'.repeat(43))).toMatchObject({
      status: 401,
      body: wireError(401, 'domain-registration-update-auth-failure'),
    });
    const proven = await verify(challenge.body.token);
    expect(proven.status, proven.text).toBe(200);
    // the challenge is used up
    expect(await verify(challenge.body.token)).toMatchObject({
      status: 404,
      body: wireError(404, 'challenge-not-found'),
    });
    return proven.body.domain_ownership_token as string;
  }

  const redirect = (domain: string, token: string | undefined, body: unknown, v = 8) =>
    call(rig.b.publicUrl, `/v${v}/domain-verification/${domain}/backend`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
    });

  it('sends a pre-authorized domain to another backend once its owner proved it in DNS', async () => {
    const domain = freshDomain();
    // nobody proves a domain the operators do not know of
    const unknown = await postJson(rig.b.publicUrl, `/v8/domain-verification/${domain}/challenges`, {});
    expect(
      await postJson(rig.b.publicUrl, `/v8/domain-verification/${domain}/challenges/${unknown.body.id}`, {
        challenge_token: unknown.body.token,
      }),
    ).toMatchObject({ status: 403, body: wireError(403, 'operation-forbidden-for-domain-registration-state') });
    expect((await internal('POST', `/i/domain-registration/${domain}/preauthorize`)).status).toBe(204);
    const token = await prove(domain);
    expect((await redirect(domain, undefined, { domain_redirect: 'no-registration' })).status).toBe(400);
    expect(await redirect(domain, 'B'.repeat(43), { domain_redirect: 'no-registration' })).toMatchObject({
      status: 401,
      body: wireError(401, 'domain-registration-update-auth-failure'),
    });
    const sent = await redirect(domain, token, {
      domain_redirect: 'backend',
      backend_url: 'https://wire.corp.example.org',
    });
    expect(sent.status, sent.text).toBe(200);
    expect((await lookup(`sven@${domain}`)).body).toEqual({
      domain_redirect: 'backend',
      backend_url: 'https://wire.corp.example.org',
    });
    // v9 writes the backend as an object, with the web app; an update there must name both
    expect(
      (
        await redirect(
          domain,
          token,
          { domain_redirect: 'backend', backend: { config_url: 'https://wire.corp.example.org' } },
          9,
        )
      ).status,
    ).toBe(400);
    const v9 = await redirect(
      domain,
      token,
      {
        domain_redirect: 'backend',
        backend: { config_url: 'https://wire.corp.example.org', webapp_url: 'https://app.corp.example.org' },
      },
      9,
    );
    expect(v9.status, v9.text).toBe(200);
    expect((await lookup(`sven@${domain}`, 9)).body).toEqual({
      domain_redirect: 'backend',
      backend: {
        config_url: 'https://wire.corp.example.org',
        backend_url: 'https://wire.corp.example.org',
        webapp_url: 'https://app.corp.example.org',
      },
    });
    const registration = await internal('GET', `/i/domain-registration/${domain}`);
    expect(registration.body).toMatchObject({
      domain,
      domain_redirect: 'backend',
      backend: { config_url: 'https://wire.corp.example.org' },
      team_invite: 'not-allowed',
      dns_verification_token: expect.any(String),
    });
    // back to pre-authorized: nobody is sent elsewhere
    expect((await redirect(domain, token, { domain_redirect: 'remove' })).status).toBe(200);
    expect((await lookup(`sven@${domain}`)).body).toEqual({ domain_redirect: 'pre-authorized' });
  });

  it('keeps existing accounts here: no-registration, due to the existing account', async () => {
    const domain = freshDomain();
    await internal('POST', `/i/domain-registration/${domain}/preauthorize`);
    const token = await prove(domain);
    // an account made before the domain moves
    const paolo = `paolo@${domain}`;
    expect((await postActivateSend(rig.b.publicUrl, { email: paolo })).status).toBe(200);
    const registered = await postRegister(rig.b.publicUrl, {
      name: 'Paolo',
      email: paolo,
      password: 'secret-password',
      email_code: await activationCode(rig.b.internalUrl, paolo),
    });
    expect(registered.status, registered.text).toBe(201);
    await redirect(domain, token, { domain_redirect: 'backend', backend_url: 'https://wire.corp.example.org' });
    expect((await lookup(paolo)).body).toEqual({ domain_redirect: 'no-registration', due_to_existing_account: true });
    expect((await lookup(`sven@${domain}`)).body).toEqual({
      domain_redirect: 'backend',
      backend_url: 'https://wire.corp.example.org',
    });
  });

  it('lets operators lock, unlock, pre-authorize and unauthorize, with audit mails', async () => {
    const domain = freshDomain();
    const before = (await mailsTo(rig.b.publicUrl, AUDIT)).length;
    expect((await internal('GET', `/i/domain-registration/${domain}`)).status).toBe(404);
    expect(await internal('POST', `/i/domain-registration/${domain}/unlock`)).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
    expect((await internal('POST', `/i/domain-registration/${domain}/lock`)).status).toBe(204);
    expect((await lookup(`x@${domain}`)).body).toEqual({ domain_redirect: 'locked' });
    // a locked domain gets no challenge, and cannot be pre-authorized
    expect((await postJson(rig.b.publicUrl, `/v8/domain-verification/${domain}/challenges`, {})).status).toBe(403);
    expect((await internal('POST', `/i/domain-registration/${domain}/preauthorize`)).status).toBe(403);
    expect((await internal('POST', `/i/domain-registration/${domain}/unlock`)).status).toBe(204);
    expect((await internal('POST', `/i/domain-registration/${domain}/preauthorize`)).status).toBe(204);
    expect((await internal('POST', `/i/domain-registration/${domain}/unauthorize`)).status).toBe(204);
    expect((await internal('GET', `/i/domain-registration/${domain}`)).body).toEqual({
      domain,
      domain_redirect: 'none',
      team_invite: 'allowed',
      dns_verification_token: null,
    });
    const all = await mailsTo(rig.b.publicUrl, AUDIT); // newest first
    const mails = all.slice(0, all.length - before);
    expect(mails.map((m) => m.subject).reverse()).toEqual([
      'Domain locked',
      'Domain unlocked',
      'Domain preauthorized',
      'Domain unauthorized',
    ]);
    expect(mails[0]!.text).toContain(`POST /i/domain-registration/${domain}/unauthorize called;`);
    expect(mails[0]!.text).toContain('"domain_redirect": "pre-authorized"');
    expect((await internal('DELETE', `/i/domain-registration/${domain}`)).status).toBe(204);
    expect((await mailsTo(rig.b.publicUrl, AUDIT))[0]!.subject).toBe('Domain deleted');
    expect((await internal('GET', `/i/domain-registration/${domain}`)).status).toBe(404);
  });

  it('refuses updates that contradict themselves, and bad domains', async () => {
    const domain = freshDomain();
    for (const body of [
      { domain_redirect: 'locked', team_invite: 'not-allowed' },
      { domain_redirect: 'backend', backend: { config_url: 'https://w.example.com' }, team_invite: 'allowed' },
    ])
      expect(await internal('PUT', `/i/domain-registration/${domain}`, body)).toMatchObject({
        status: 403,
        body: wireError(403, 'operation-forbidden-for-domain-registration-state'),
      });
    expect(
      (await internal('PUT', `/i/domain-registration/${domain}`, { domain_redirect: 'sso', team_invite: 'allowed' }))
        .status,
    ).toBe(400);
    const sso = crypto.randomUUID();
    const put = await internal('PUT', `/i/domain-registration/${domain}`, {
      domain_redirect: 'sso',
      sso_code: sso,
      team_invite: 'allowed',
    });
    expect(put.status, put.text).toBe(204);
    expect((await lookup(`new@${domain}`)).body).toEqual({ domain_redirect: 'sso', sso_code: sso });
    expect(await lookup('not-an-email')).toMatchObject({ status: 400, body: wireError(400, 'invalid-domain') });
    expect((await lookup(`someone@${freshDomain()}`)).body).toEqual({ domain_redirect: 'none' });
  });
});
