import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { api, createUser } from '../../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();
const events = async (token: string, type: string) =>
  (await api(publicUrl, token).get('/v8/notifications')).body.notifications
    .map((n: any) => n.payload[0])
    .filter((e: any) => e.type === type);

describe('the self profile', () => {
  it('shows the private view with managed_by, and updates it with events', async () => {
    const u = await createUser(publicUrl, internalUrl, { name: 'Self' });
    const me = api(publicUrl, u.token);
    const self = await me.get('/v8/self');
    expect(self.body).toEqual({
      id: u.id,
      qualified_id: { id: u.id, domain: 'example.com' },
      name: 'Self',
      accent_id: 0,
      assets: [],
      picture: [],
      locale: 'en',
      status: 'active',
      email: u.email,
      managed_by: 'wire',
      supported_protocols: ['proteus'],
    });
    const assets = [{ key: '3-1-0b9e7c6a-1a1a-4b4b-8c8c-9d9d9d9d9d9d', type: 'image', size: 'preview' }];
    expect((await me.put('/v8/self', { name: 'New Name', accent_id: 3, text_status: 'busy', assets })).status).toBe(
      200,
    );
    expect((await me.get('/v8/self')).body).toMatchObject({
      name: 'New Name',
      accent_id: 3,
      text_status: 'busy',
      assets,
    });
    expect(await events(u.token, 'user.update')).toContainEqual({
      type: 'user.update',
      user: { id: u.id, name: 'New Name', accent_id: 3, text_status: 'busy', assets },
    });
    expect(await me.put('/v8/self', { name: '' })).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
    expect(await me.put('/v8/self', { text_status: 'x'.repeat(257) })).toMatchObject({ status: 400 });
    expect(await me.put('/v8/self/locale', { locale: 'not a locale' })).toMatchObject({ status: 400 });
    expect((await me.put('/v8/self/locale', { locale: 'de-CH' })).status).toBe(200);
    expect((await me.get('/v8/self')).body.locale).toBe('de-CH');
  });

  it('accepts an update that names no known field, and changes nothing', async () => {
    const u = await createUser(publicUrl, internalUrl, { name: 'Unchanged' });
    const me = api(publicUrl, u.token);
    const before = (await me.get('/v8/self')).body;
    for (const body of [{}, { picture: [] }, { unknown: 'field' }]) {
      const r = await me.put('/v8/self', body);
      expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(200);
    }
    expect((await me.get('/v8/self')).body).toEqual(before);
  });

  it('adds MLS to the supported protocols, and never removes it again', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, u.token);
    expect((await me.put('/v8/self/supported-protocols', { supported_protocols: ['proteus', 'mls'] })).status).toBe(
      200,
    );
    expect((await me.get(`/v8/users/example.com/${u.id}/supported-protocols`)).body).toEqual(['proteus', 'mls']);
    expect(await me.put('/v8/self/supported-protocols', { supported_protocols: ['proteus'] })).toMatchObject({
      status: 409,
      body: wireError(409, 'mls-protocol-error'),
    });
    expect(await me.put('/v8/self/supported-protocols', { supported_protocols: ['carrier-pigeon'] })).toMatchObject({
      status: 400,
    });
  });
});

describe('handles', () => {
  it('claims, checks and suggests handles', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const other = await createUser(publicUrl, internalUrl);
    const handle = `handle-${u.id.slice(0, 8)}`;
    const me = api(publicUrl, u.token);
    expect((await me.head(`/v8/handles/${handle}`)).status).toBe(404);
    expect((await me.put('/v8/self/handle', { handle })).status).toBe(200);
    expect((await me.put('/v8/self/handle', { handle })).status).toBe(200); // idempotent
    expect((await me.head(`/v8/handles/${handle}`)).status).toBe(200);
    expect((await me.head(`/v6/users/handles/${handle}`)).status).toBe(200);
    expect((await me.head('/v8/handles/INVALID')).status).toBe(400);
    expect((await me.get(`/v8/handles/${handle}`)).status).toBe(405);
    expect(await api(publicUrl, other.token).put('/v8/self/handle', { handle })).toMatchObject({
      status: 409,
      body: wireError(409, 'handle-exists'),
    });
    for (const bad of ['a', 'UPPER', 'has space', 'support', 'x'.repeat(257)])
      expect(await me.put('/v8/self/handle', { handle: bad })).toMatchObject({
        status: 400,
        body: wireError(400, 'invalid-handle'),
      });
    const free = `free-${u.id.slice(0, 8)}`;
    const suggested = await me.post('/v8/handles', { handles: [handle, 'admin', free, `${free}2`], return: 1 });
    expect(suggested.body).toEqual([free]);
    expect((await events(u.token, 'user.update')).map((e: any) => e.user.handle)).toContain(handle);
  });
});

describe('other users', () => {
  it('shows public profiles without private fields', async () => {
    const u = await createUser(publicUrl, internalUrl, { name: 'Viewer' });
    const v = await createUser(publicUrl, internalUrl, { name: 'Viewed' });
    const me = api(publicUrl, u.token);
    expect((await me.get(`/v8/users/example.com/${v.id}`)).body).toEqual({
      id: v.id,
      qualified_id: { id: v.id, domain: 'example.com' },
      name: 'Viewed',
      accent_id: 0,
      assets: [],
      picture: [],
      supported_protocols: ['proteus'],
      legalhold_status: 'no_consent',
    });
    expect(await me.get('/v8/users/example.com/00000000-0000-4000-8000-000000000000')).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
    expect((await me.get('/v8/users/example.com/not-a-uuid')).status).toBe(400);
    // A backend this one does not federate with (the shipped allow list names b.example.com only).
    expect(await me.get(`/v8/users/other.example.org/${v.id}`)).toMatchObject({
      status: 400,
      body: wireError(400, 'federation-denied'),
    });
  });

  it('lists users by qualified id or handle', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const v = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, u.token);
    const handle = `list-${v.id.slice(0, 8)}`;
    await api(publicUrl, v.token).put('/v8/self/handle', { handle });
    const remote = { id: v.id, domain: 'far.example.org' };
    const byId = await me.post('/v8/list-users', { qualified_ids: [{ id: v.id, domain: 'example.com' }, remote] });
    expect(byId.body.found.map((p: any) => p.id)).toEqual([v.id]);
    expect(byId.body.failed).toEqual([remote]);
    const byHandle = await me.post('/v8/list-users', { qualified_handles: [{ handle, domain: 'example.com' }] });
    expect(byHandle.body).toEqual({ found: [expect.objectContaining({ id: v.id, handle })] });
    expect((await me.post('/v3/list-users', { qualified_ids: [{ id: v.id, domain: 'example.com' }] })).body).toEqual([
      expect.objectContaining({ id: v.id }),
    ]);
    expect(await me.post('/v8/list-users', {})).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
  });
});
