import { afterEach, describe, expect, it } from 'vitest';
import { assetBody } from '../helpers/assets.js';
import { startBotService, type BotService } from '../helpers/bot-service.js';
import { call } from '../helpers/http.js';
import { otrMessage, postOtr } from '../helpers/otr.js';
import { proteusKeys } from '../helpers/prekeys.js';
import { activeProvider } from '../helpers/providers.js';
import { rsaTlsIdentity } from '../helpers/rsa-tls.js';
import { uniqueEmail } from '../helpers/users.js';
import { as, createTeam, expectError, expectStatus, internal, ownBackend, randomUser } from './lib/identity-users.js';

/** wire's Test.Services, Test.Provider and Test.Bot: providers, their services and bots. */
const own = ownBackend();
const bots: BotService[] = [];
afterEach(async () => {
  await Promise.all(bots.splice(0).map((s) => s.stop()));
});

type Provider = Awaited<ReturnType<typeof activeProvider>>;
const provider = () => activeProvider(own.publicUrl, own.internalUrl);
const asP = (p: Provider, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(own.publicUrl, `/v8${path}`, {
    method,
    headers: { cookie: p.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** wire's newService: a service with a key (by default one made here) and a base URL. */
async function newService(
  p: Provider,
  o: { name?: string; tags?: string[]; baseUrl?: string; publicKey?: string } = {},
) {
  const publicKey = o.publicKey ?? (await rsaTlsIdentity()).publicKeyPem;
  const r = await asP(p, 'POST', '/provider/services', {
    name: o.name ?? 'test service',
    summary: 'a test service',
    description: 'a service for the tests',
    base_url: o.baseUrl ?? 'https://127.0.0.1:1/service',
    public_key: publicKey,
    auth_token: 'dG9rZW4',
    assets: [],
    tags: o.tags ?? ['music'],
  });
  expectStatus(r, 201);
  return r.body.id as string;
}
const enable = (p: Provider, sid: string) =>
  asP(p, 'PUT', `/provider/services/${sid}/connection`, { password: p.password, enabled: true });

describe('Services and providers', () => {
  it('Services.testUpdateServiceUpdateAcceptHeader', async () => {
    const p = await provider();
    const sid = await newService(p);
    expectStatus(
      await asP(p, 'PUT', `/provider/services/${sid}`, { name: 'brand new service' }, { accept: 'application/json' }),
      200,
    );
    expectStatus(
      await asP(p, 'PUT', `/provider/services/${sid}`, { name: 'even newer service' }, { accept: 'text/plain' }),
      200,
    );
    expectStatus(await asP(p, 'PUT', `/provider/services/${sid}`, { name: 'really old service' }), 200);
  });

  it('Provider.testProviderUploadAsset', async () => {
    const p = await provider();
    const { body, contentType } = assetBody(new TextEncoder().encode('profile pic'));
    const r = await call(own.publicUrl, '/v8/provider/assets', {
      method: 'POST',
      headers: { cookie: p.cookie, 'content-type': contentType },
      body,
    });
    expectStatus(r, 201);
    const again = assetBody(new TextEncoder().encode('another profile pic'));
    const r2 = await call(own.publicUrl, '/v8/provider/assets', {
      method: 'POST',
      headers: { cookie: p.cookie, 'content-type': again.contentType },
      body: again.body,
    });
    expectStatus(r2, 201);
  });

  const login = (email: string, password: string) => as(own).post('/provider/login', { email, password });
  const resetCodeOf = async (email: string) => {
    const r = await internal(own).get(`/i/provider/password-reset-code?email=${encodeURIComponent(email)}`);
    expectStatus(r, 200);
    return r.body as { key: string; code: string };
  };

  it('Provider.testProviderPasswordReset', async () => {
    const p = await provider();
    expect((await as(own).post('/provider/password-reset', { email: p.email })).status).toBeLessThan(300);
    const code = await resetCodeOf(p.email);
    const complete = (password: string) => as(own).post('/provider/password-reset/complete', { ...code, password });
    expectError(await complete(p.password), 409, 'password-must-differ');
    expect((await complete('shiny-new-password')).status).toBeLessThan(300);
    expectStatus(await login(p.email, 'shiny-new-password'), 200);
    expectError(await login(p.email, p.password), 403, 'invalid-credentials');
  });

  it('Provider.testProviderPasswordResetAfterEmailUpdate', async () => {
    const p = await provider();
    const newEmail = uniqueEmail('provider');
    expect((await as(own).post('/provider/password-reset', { email: p.email })).status).toBeLessThan(300);
    expect((await asP(p, 'PUT', '/provider/email', { email: newEmail })).status).toBeLessThan(300);
    const resetCode = await resetCodeOf(p.email);
    const activation = await internal(own).get(`/i/provider/activation-code?email=${encodeURIComponent(newEmail)}`);
    expectStatus(activation, 200);
    const activated = await as(own).get(`/provider/activate?key=${activation.body.key}&code=${activation.body.code}`);
    expect([200, 204]).toContain(activated.status);
    expectError(
      await as(own).post('/provider/password-reset/complete', { ...resetCode, password: 'shiny-new-password' }),
      403,
      'invalid-code',
    );
    expectError(await login(p.email, p.password), 403, 'invalid-credentials');
    expectStatus(await login(newEmail, p.password), 200);
    expect((await as(own).post('/provider/password-reset', { email: newEmail })).status).toBeLessThan(300);
    const next = await resetCodeOf(newEmail);
    expect(
      (await as(own).post('/provider/password-reset/complete', { ...next, password: 'shiny-new-password' })).status,
    ).toBeLessThan(300);
    expectStatus(await login(newEmail, 'shiny-new-password'), 200);
  });

  it('Provider.testProviderSearchWhitelist', async () => {
    const { owner, tid, members } = await createTeam(own, 2);
    const user = members[0]!;
    const p = await provider();
    const prefix = crypto.randomUUID().replaceAll('-', '').slice(0, 10);
    const names = [
      'Alpha',
      'Beta',
      'bjorn',
      'Bjørn',
      'CHRISTMAS',
      'Delta',
      'Epsilon',
      'Freer',
      'Gamma',
      'Gramma',
      'Hera',
      'Io',
      'Jojo',
      'Kuba',
      'Lawn',
      'Mango',
      'North',
      'Yak',
      'Zeta',
      'Zulu',
    ].map((n) => `${prefix}|${n}`);
    const createAndEnable = async (name: string, tags: string[]) => {
      const sid = await newService(p, { name, tags });
      expectStatus(await enable(p, sid), 200);
      const w = await as(owner).post(`/teams/${tid}/services/whitelist`, {
        id: sid,
        provider: p.id,
        whitelisted: true,
      });
      expect(w.status, w.text).toBeLessThan(300);
      return sid;
    };
    const ids: string[] = [];
    for (let i = 0; i < names.length; i += 5) {
      const batch = names.slice(i, i + 5);
      const tags = (k: number) => ((i + k) % 2 === 0 ? ['social', 'quiz'] : ['social', 'music']);
      ids.push(...(await Promise.all(batch.map((name, k) => createAndEnable(name, tags(k))))));
    }
    const list = (q: Record<string, string>) =>
      as(user).get(`/teams/${tid}/services/whitelisted?${new URLSearchParams({ size: '20', ...q })}`);
    const byPrefix = await list({ prefix, filter_disabled: 'false' });
    expectStatus(byPrefix, 200);
    expect(byPrefix.body.services.map((s: any) => s.id)).toEqual(ids);
    expect((await list({ prefix })).body.services.map((s: any) => s.id)).toEqual(ids);
    const zeros = await createAndEnable(`0000000000|${crypto.randomUUID().slice(0, 10)}`, ['social']);
    expect((await list({})).body.services[0].id).toBe(zeros);
    for (const name of names.slice(0, 3)) {
      const r = await list({ prefix: name, filter_disabled: 'false' });
      expect(r.body.has_more).toBe(false);
      expect(r.body.services.map((s: any) => s.name)).toEqual([name]);
    }
    for (const [term, name] of [
      ['Bjø', 'Bjørn'],
      ['Bjo', 'bjorn'],
      ['chris', 'CHRISTMAS'],
    ]) {
      const r = await list({ prefix: `${prefix}|${term}`, filter_disabled: 'false' });
      expect(r.body.has_more).toBe(false);
      expect(r.body.services.map((s: any) => s.name)).toEqual([`${prefix}|${name}`]);
    }
    const newAlpha = `${prefix}|NotAlphaAnyMore`;
    expectStatus(await asP(p, 'PUT', `/provider/services/${ids[0]}`, { name: newAlpha }), 200);
    const renamed = await list({ prefix: newAlpha, filter_disabled: 'false' });
    expect(renamed.body.services[0]).toMatchObject({ id: ids[0], name: newAlpha });
  });

  it('Bot.testBotSelfSigned', async () => {
    const alice = await randomUser(own);
    const service = await startBotService();
    bots.push(service);
    const p = await provider();
    const sid = await newService(p, { baseUrl: service.baseUrl, publicKey: service.publicKeyPem });
    const conv = await as(alice).post('/conversations', {
      qualified_users: [],
      access_role: ['team_member', 'non_team_member', 'guest', 'service'],
    });
    expectStatus(conv, 201);
    expectStatus(await enable(p, sid), 200);
    const added = await as(alice).post(`/bot/conversations/${conv.body.qualified_id.id}`, {
      provider: p.id,
      service: sid,
    });
    expectStatus(added, 201);
    const aliceClient = await as(alice).post('/clients', {
      type: 'permanent',
      ...(await proteusKeys(1)),
      password: alice.password,
    });
    expectStatus(aliceClient, 201);
    const msg = otrMessage(aliceClient.body.id, [{ user: added.body.id, client: added.body.client, text: 'hi bot' }]);
    expectStatus(await postOtr(own.publicUrl, alice.token, conv.body.qualified_id.id, msg), 201);
  });
});
