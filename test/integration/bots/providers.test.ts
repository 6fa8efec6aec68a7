import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import {
  activeProvider as activeProviderAt,
  asProvider as asProviderAt,
  registeredProvider as registeredProviderAt,
} from '../../helpers/providers.js';
import { rsaTlsIdentity } from '../../helpers/rsa-tls.js';
import { api, invitedMember, teamOwner, type TeamOwner } from '../../helpers/users.js';
import {
  deleteProvider,
  deleteProviderService,
  getProvider,
  getProviderActivate,
  getProviderOwnService,
  getProviderService,
  getServices,
  postProviderLogin,
  postProviderRegister,
  postProviderService,
  putProvider,
  putProviderEmail,
  putProviderPassword,
  putProviderService,
  putProviderServiceConnection,
} from '../../helpers/endpoints/brig.js';

// Service providers (wire's provider API): an account whose address is activated by a mailed key
// and code, a `zprovider` cookie whose token reaches only /provider, its services, and how users
// find them and teams allow them.

const { publicUrl: pub, internalUrl } = sharedBackend();

const asProvider = (cookie: string, method: string, path: string, body?: unknown) =>
  asProviderAt(pub, cookie, method, path, body);
const registeredProvider = () => registeredProviderAt(pub);
const activeProvider = () => activeProviderAt(pub, internalUrl);

describe('service providers', () => {
  let owner: TeamOwner;
  let publicKeyPem: string;

  beforeAll(async () => {
    owner = await teamOwner(pub, internalUrl);
    publicKeyPem = (await rsaTlsIdentity()).publicKeyPem;
  });

  const newService = (name: string) => ({
    name,
    summary: 'Tells the weather',
    description: 'A bot that tells the weather',
    base_url: 'https://weather.example.com/bot',
    public_key: publicKeyPem,
    assets: [],
    tags: ['weather', 'music'],
  });

  it('register, activate their address with the mailed key and code, and log in', async () => {
    const p = await registeredProvider();
    expect(p.password).toMatch(/^\S{6,}$/);
    const again = await postProviderRegister(pub, {
      name: 'Other',
      email: p.email,
      url: 'https://other.example.com',
      description: 'd',
    });
    expect(again.body).toMatchObject(wireError(409, 'email-exists'));
    const early = await postProviderLogin(pub, { email: p.email, password: p.password });
    expect(early.body).toMatchObject(wireError(403, 'invalid-credentials'));

    const { key, code } = (await call(internalUrl, `/i/provider/activation-code?email=${encodeURIComponent(p.email)}`))
      .body;
    const wrong = await getProviderActivate(pub, { key, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.body).toMatchObject(wireError(403, 'invalid-code'));
    const activated = await getProviderActivate(pub, { key, code });
    expect(activated).toMatchObject({ status: 200, body: { email: p.email } });

    const login = await postProviderLogin(pub, { email: p.email, password: p.password });
    expect(login.status).toBe(200);
    const setCookie = login.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^zprovider=[^;]+; Path=\/provider; HttpOnly; Expires=[^;]+$/);
    const cookie = /zprovider=[^;]+/.exec(setCookie)![0];
    const account = await getProvider(pub, cookie);
    expect(account.body).toEqual({
      id: p.id,
      name: 'Acme Bots',
      email: p.email,
      url: 'https://bots.example.com',
      description: 'Bots of all kinds',
    });
    expect((await putProvider(pub, cookie, { name: 'Acme' })).status).toBe(200);
    expect((await api(pub, owner.token).get(`/v8/providers/${p.id}`)).body.name).toBe('Acme');
  });

  it("keep providers' and users' tokens apart", async () => {
    const p = await activeProvider();
    expect((await asProvider(p.cookie, 'GET', '/v8/self')).body).toMatchObject(wireError(403, 'access-denied'));
    expect((await api(pub, owner.token).get('/v8/provider')).body).toMatchObject(wireError(403, 'access-denied'));
    expect((await call(pub, '/v8/provider')).status).toBe(401);
  });

  it('manage services: created disabled, found by users once enabled, gone when deleted', async () => {
    const p = await activeProvider();
    const bad = await postProviderService(pub, p.cookie, {
      ...newService('Weather'),
      public_key: (await rsaTlsIdentity({ bits: 1024 })).publicKeyPem,
    });
    expect(bad.body).toMatchObject(wireError(400, 'invalid-service-key'));
    const name = `Weather ${p.id.slice(0, 8)}`;
    const created = await postProviderService(pub, p.cookie, newService(name));
    expect(created.status, created.text).toBe(201);
    const sid = created.body.id as string;
    expect(created.body.auth_token).toMatch(/^[A-Za-z0-9_-]+$/);
    const mine = await getProviderOwnService(pub, p.cookie, sid);
    expect(mine.body).toMatchObject({
      id: sid,
      name,
      enabled: false,
      tags: ['music', 'weather'],
      auth_tokens: [created.body.auth_token],
      public_keys: [{ type: 'rsa', size: 2048, pem: publicKeyPem }],
    });

    const user = api(pub, owner.token);
    const search = async () =>
      ((await getServices(pub, owner.token, { tags: 'weather.music', start: name })).body.services as any[]).map(
        (s) => s.id,
      );
    expect(await search()).toEqual([]);
    expect(
      (await putProviderServiceConnection(pub, p.cookie, sid, { password: 'wrong-password', enabled: true })).body,
    ).toMatchObject(wireError(403, 'invalid-credentials'));
    expect(
      (await putProviderServiceConnection(pub, p.cookie, sid, { password: p.password, enabled: true })).status,
    ).toBe(200);
    expect(await search()).toEqual([sid]);
    expect((await getServices(pub, owner.token, { start: name })).body.services[0]).toMatchObject({
      id: sid,
      provider: p.id,
      name,
      enabled: true,
    });
    expect((await getServices(pub, owner.token)).body).toMatchObject(wireError(400, 'bad-request'));
    expect((await getProviderService(pub, owner.token, p.id, sid)).body.summary).toBe('Tells the weather');
    const tags = (await user.get('/v8/services/tags')).body;
    expect(tags).toHaveLength(31);
    expect(tags.slice(0, 3)).toEqual(['audio', 'books', 'business']);

    expect((await putProviderService(pub, p.cookie, sid, { summary: 'Sunny' })).status).toBe(200);
    expect((await getProviderService(pub, owner.token, p.id, sid)).body.summary).toBe('Sunny');
    const deleted = await deleteProviderService(pub, p.cookie, sid, { password: p.password });
    expect(deleted.status).toBe(202);
    expect((await getProviderOwnService(pub, p.cookie, sid)).body).toMatchObject(wireError(404, 'not-found'));
  });

  it('are allowed per team by its admins, never where MLS is the default', async () => {
    const p = await activeProvider();
    const sid = (await postProviderService(pub, p.cookie, newService('Allowed'))).body.id;
    const member = await invitedMember(pub, owner);
    const path = `/v8/teams/${owner.team}/services/whitelist`;
    const change = { provider: p.id, id: sid, whitelisted: true };
    expect((await api(pub, member.token).post(path, change)).body).toMatchObject(
      wireError(403, 'insufficient-permissions'),
    );
    expect((await api(pub, owner.token).post(path, change)).status).toBe(200);
    expect((await api(pub, owner.token).post(path, change)).status).toBe(204);
    const listed = `/v8/teams/${owner.team}/services/whitelisted`;
    expect((await api(pub, member.token).get(`${listed}?filter_disabled=false`)).body.services).toContainEqual(
      expect.objectContaining({ id: sid, enabled: false }),
    );
    expect((await api(pub, member.token).get(listed)).body.services.map((s: any) => s.id)).not.toContain(sid);
    const stranger = await teamOwner(pub, internalUrl);
    expect((await api(pub, stranger.token).get(listed)).body).toMatchObject(wireError(403, 'insufficient-permissions'));

    const mls = {
      status: 'enabled',
      config: {
        protocolToggleUsers: [],
        defaultProtocol: 'mls',
        supportedProtocols: ['proteus', 'mls'],
        allowedCipherSuites: [1],
        defaultCipherSuite: 1,
      },
    };
    expect((await api(internalUrl).put(`/i/teams/${owner.team}/features/mls`, mls)).status).toBe(200);
    expect((await api(pub, owner.token).post(path, { ...change, whitelisted: false })).body).toMatchObject(
      wireError(409, 'mls-services-not-allowed'),
    );
  });

  it('change their password and delete their account with it', async () => {
    const p = await activeProvider();
    const wrong = await putProviderPassword(pub, p.cookie, {
      old_password: 'not-my-password',
      new_password: 'new-secret-pw',
    });
    expect(wrong.body).toMatchObject(wireError(403, 'invalid-credentials'));
    const same = await putProviderPassword(pub, p.cookie, {
      old_password: p.password,
      new_password: p.password,
    });
    expect(same.body).toMatchObject(wireError(409, 'password-must-differ'));
    const changed = await putProviderPassword(pub, p.cookie, {
      old_password: p.password,
      new_password: 'new-secret-pw',
    });
    expect(changed.status).toBe(200);
    expect((await deleteProvider(pub, p.cookie, { password: 'new-secret-pw' })).status).toBe(200);
    expect((await getProvider(pub, p.cookie)).body).toMatchObject(wireError(404, 'not-found'));
    expect((await postProviderLogin(pub, { email: p.email, password: 'new-secret-pw' })).status).toBe(403);
  });

  it('reset a forgotten password with a mailed key and code, which a change of address voids', async () => {
    const p = await activeProvider();
    const reset = (email: string) => api(pub).post('/v8/provider/password-reset', { email });
    expect((await reset('nobody@example.com')).body).toMatchObject(wireError(403, 'invalid-credentials'));
    expect((await reset(p.email)).status).toBe(201);
    const again = await reset(p.email);
    expect(again.body).toMatchObject(wireError(409, 'code-exists'));
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    const codeOf = async (email: string) =>
      (await call(internalUrl, `/i/provider/password-reset-code?email=${encodeURIComponent(email)}`)).body;
    const { key, code } = await codeOf(p.email);
    const complete = (body: object) => api(pub).post('/v8/provider/password-reset/complete', body);
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect((await complete({ key, code: wrongCode, password: 'reset-pw-1' })).body).toMatchObject(
      wireError(403, 'invalid-code'),
    );
    expect((await complete({ key, code, password: p.password })).body).toMatchObject(
      wireError(409, 'password-must-differ'),
    );
    expect((await complete({ key, code, password: 'reset-pw-1' })).status).toBe(200);
    expect((await postProviderLogin(pub, { email: p.email, password: 'reset-pw-1' })).status).toBe(200);

    // A reset mailed to the old address dies with the change of address.
    expect((await reset(p.email)).status).toBe(201);
    const old = await codeOf(p.email);
    const newEmail = `moved-${p.email}`;
    expect((await putProviderEmail(pub, p.cookie, { email: newEmail })).status).toBe(202);
    const activation = (await call(internalUrl, `/i/provider/activation-code?email=${encodeURIComponent(newEmail)}`))
      .body;
    const activated = await getProviderActivate(pub, { key: activation.key, code: activation.code });
    expect(activated.body).toEqual({ email: newEmail });
    expect((await complete({ ...old, password: 'reset-pw-2' })).body).toMatchObject(wireError(403, 'invalid-code'));
    expect((await getProvider(pub, p.cookie)).body).toMatchObject({ email: newEmail });
  });
});
