import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { addClient } from '../../helpers/clients.js';
import { call, type Reply } from '../../helpers/http.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();
const q = (id: string) => ({ id, domain: 'example.com' });

/** Not served at that version: no route (404), only other methods on the path (405), or a newer route's parameters (400). */
const notServed = (r: Reply) => expect([400, 404, 405], `${r.status} ${r.text}`).toContain(r.status);

async function withHandle(): Promise<TestUser & { handle: string }> {
  const u = await createUser(publicUrl, internalUrl);
  const handle = `h-${crypto.randomUUID().slice(0, 12)}`;
  expect((await api(publicUrl, u.token).put('/v8/self/handle', { handle })).status).toBe(200);
  return { ...u, handle };
}

describe("older versions' user routes (local users by bare id or handle)", () => {
  it('reads users by id, by ids or handles, and handles, until v2', async () => {
    const [me, other] = [await createUser(publicUrl, internalUrl), await withHandle()];
    const me_ = api(publicUrl, me.token);
    const byId = await me_.get(`/v1/users/${other.id}`);
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body).toMatchObject({ id: other.id, qualified_id: q(other.id), handle: other.handle });
    notServed(await me_.get(`/v2/users/${other.id}`));

    const byIds = await me_.get(`/v0/users?ids=${other.id},${me.id}`);
    expect(byIds.status, byIds.text).toBe(200);
    expect(byIds.body.map((u: { id: string }) => u.id).sort()).toEqual([other.id, me.id].sort());
    const byHandles = await me_.get(`/v1/users?handles=${other.handle}`);
    expect(byHandles.body).toEqual([expect.objectContaining({ id: other.id })]);
    expect((await me_.get('/v1/users')).status).toBe(400);
    notServed(await me_.get(`/v2/users?ids=${other.id}`));

    const info = await me_.get(`/v1/users/handles/${other.handle}`);
    expect([info.status, info.body]).toEqual([200, { user: other.id, qualified_user: q(other.id) }]);
    expect((await me_.get('/v1/users/handles/nobody-has-this-one')).status).toBe(404);
    // the HEAD route of the same path still checks the handle
    expect((await me_.head(`/v1/users/handles/${other.handle}`)).status).toBe(200);
    expect((await me_.head('/v1/users/handles/nobody-has-this-one')).status).toBe(404);
    notServed(await me_.get(`/v2/users/handles/${other.handle}`));

    const byHandle = await me_.get(`/v1/users/by-handle/example.com/${other.handle}`);
    expect(byHandle.status, byHandle.text).toBe(200);
    expect(byHandle.body).toMatchObject({ id: other.id, handle: other.handle });
    notServed(await me_.get(`/v2/users/by-handle/example.com/${other.handle}`));
  });

  it('checks handles at /users/handles until v7, at /handles from v7', async () => {
    const taken = await withHandle();
    const me_ = api(publicUrl, taken.token);
    const free = `free-${crypto.randomUUID().slice(0, 12)}`;
    const body = { handles: [taken.handle, free], return: 2 };
    const old = await me_.post('/v6/users/handles', body);
    expect([old.status, old.body]).toEqual([200, [free]]);
    expect((await me_.post('/v7/handles', body)).body).toEqual([free]);
    notServed(await me_.post('/v7/users/handles', body));
    notServed(await me_.post('/v6/handles', body));
  });

  it("lists a user's clients by bare id and in bulk in v0/v1's forms, until v2", async () => {
    const [me, other] = [await createUser(publicUrl, internalUrl), await createUser(publicUrl, internalUrl)];
    const client = await addClient(publicUrl, other);
    const me_ = api(publicUrl, me.token);
    const all = await me_.get(`/v1/users/${other.id}/clients`);
    expect([all.status, all.body]).toEqual([200, [expect.objectContaining({ id: client })]]);
    const one = await me_.get(`/v1/users/${other.id}/clients/${client}`);
    expect([one.status, one.body.id]).toEqual([200, client]);
    notServed(await me_.get(`/v2/users/${other.id}/clients`));
    notServed(await me_.get(`/v2/users/${other.id}/clients/${client}`));

    const bare = await me_.post('/v0/users/list-clients', [q(other.id)]);
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body).toEqual({ 'example.com': { [other.id]: [expect.objectContaining({ id: client })] } });
    const wrapped = await me_.post('/v1/users/list-clients/v2', { qualified_users: [q(other.id)] });
    expect(wrapped.body).toEqual({
      qualified_user_map: { 'example.com': { [other.id]: [expect.objectContaining({ id: client })] } },
    });
    notServed(await me_.post('/v2/users/list-clients/v2', { qualified_users: [q(other.id)] }));
    expect((await me_.post('/v2/users/list-clients', { qualified_users: [q(other.id)] })).body).toHaveProperty(
      'qualified_user_map',
    );
  });

  it('claims prekeys by bare id, until v2', async () => {
    const [me, other] = [await createUser(publicUrl, internalUrl), await createUser(publicUrl, internalUrl)];
    const client = await addClient(publicUrl, other);
    const me_ = api(publicUrl, me.token);
    const bundle = await me_.get(`/v1/users/${other.id}/prekeys`);
    expect(bundle.status, bundle.text).toBe(200);
    expect(bundle.body).toMatchObject({ user: other.id, clients: [{ client, prekey: expect.any(Object) }] });
    const one = await me_.get(`/v0/users/${other.id}/prekeys/${client}`);
    expect([one.status, one.body.client]).toEqual([200, client]);
    const many = await me_.post('/v1/users/prekeys', { [other.id]: [client] });
    expect(many.status, many.text).toBe(200);
    expect(many.body).toEqual({ [other.id]: { [client]: expect.objectContaining({ key: expect.any(String) }) } });
    notServed(await me_.get(`/v2/users/${other.id}/prekeys`));
    notServed(await me_.post('/v2/users/prekeys', { [other.id]: [client] }));
  });

  it('connects to a local user by bare id, and lists and reads those connections, until v2', async () => {
    const [me, other] = [await createUser(publicUrl, internalUrl), await createUser(publicUrl, internalUrl)];
    const me_ = api(publicUrl, me.token);
    const asked = await me_.post('/v1/connections', { user: other.id, name: 'Hi' });
    expect(asked.status, asked.text).toBe(201);
    expect(asked.body).toMatchObject({ from: me.id, to: other.id, status: 'sent', qualified_to: q(other.id) });
    expect((await me_.post('/v1/connections', { user: other.id, name: 'Hi' })).status).toBe(200);

    const accepted = await api(publicUrl, other.token).put(`/v0/connections/${me.id}`, { status: 'accepted' });
    expect([accepted.status, accepted.body.status]).toEqual([200, 'accepted']);
    const mine = await me_.get(`/v1/connections/${other.id}`);
    expect([mine.status, mine.body.status]).toEqual([200, 'accepted']);

    const page = await me_.get('/v1/connections?size=1');
    expect(page.status, page.text).toBe(200);
    expect(page.body).toEqual({ connections: [expect.objectContaining({ to: other.id })], has_more: false });
    notServed(await me_.get('/v2/connections'));
    notServed(await me_.get(`/v2/connections/${other.id}`));
    notServed(await me_.post('/v2/connections', { user: other.id, name: 'Hi' }));
  });
});

describe("older versions' account routes", () => {
  it('refuses phone numbers and SMS login codes, and has no phone to remove, until v6', async () => {
    const me = await createUser(publicUrl, internalUrl);
    const me_ = api(publicUrl, me.token);
    const change = await me_.put('/v5/self/phone', { phone: '+4915112345678' });
    expect([change.status, change.body.label]).toEqual([400, 'invalid-phone']);
    expect((await me_.del('/v5/self/phone')).status).toBe(200);
    const code = await api(publicUrl).post('/v5/login/send', { phone: '+4915112345678' });
    expect([code.status, code.body.label]).toEqual([400, 'invalid-phone']);
    notServed(await me_.put('/v6/self/phone', { phone: '+4915112345678' }));
    notServed(await me_.del('/v6/self/phone'));
    notServed(await api(publicUrl).post('/v6/login/send', { phone: '+4915112345678' }));
  });

  it('matches no contacts on /onboarding/v3 until v8', async () => {
    const me_ = api(publicUrl, (await createUser(publicUrl, internalUrl)).token);
    const r = await me_.post('/v7/onboarding/v3', { cards: [{ contact: ['x'] }], self: [] });
    expect([r.status, r.body]).toEqual([200, { results: [], 'auto-connects': [] }]);
    notServed(await me_.post('/v8/onboarding/v3', {}));
  });

  it('completes a password reset with the key in the path until v8', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const anon = api(publicUrl);
    expect((await anon.post('/v7/password-reset', { email: u.email })).status).toBe(201);
    const pending = await call(internalUrl, `/i/users/password-reset-code?email=${encodeURIComponent(u.email)}`);
    const { key, code } = pending.body;
    expect(
      (await anon.post(`/v7/password-reset/${key}`, { code: 'wrong', password: 'brand-new-password' })).status,
    ).toBe(400);
    const done = await anon.post(`/v7/password-reset/${key}`, { code, password: 'brand-new-password' });
    expect(done.status, done.text).toBe(200);
    expect((await anon.post('/v8/login', { email: u.email, password: 'brand-new-password' })).status).toBe(200);
    notServed(await anon.post(`/v8/password-reset/${key}`, { code, password: 'another-new-password' }));
  });
});
