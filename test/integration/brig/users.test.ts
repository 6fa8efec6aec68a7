import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { api, createUser } from '../../helpers/users.js';
import {
  checkHandles,
  getHandle,
  getSelf,
  getUser,
  getUserSupportedProtocols,
  headHandle,
  listUsers,
  putSelf,
  putSelfHandle,
  putSelfLocale,
  putSelfSupportedProtocols,
} from '../../helpers/endpoints/brig.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const { publicUrl, internalUrl } = sharedBackend();
const events = async (token: string, type: string) =>
  (await getNotifications(publicUrl, token)).body.notifications
    .map((n: any) => n.payload[0])
    .filter((e: any) => e.type === type);

describe('the self profile', () => {
  it('shows the private view with managed_by, and updates it with events', async () => {
    const u = await createUser(publicUrl, internalUrl, { name: 'Self' });
    const self = await getSelf(publicUrl, u.token);
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
    expect(
      (await putSelf(publicUrl, u.token, { name: 'New Name', accent_id: 3, text_status: 'busy', assets })).status,
    ).toBe(200);
    expect((await getSelf(publicUrl, u.token)).body).toMatchObject({
      name: 'New Name',
      accent_id: 3,
      text_status: 'busy',
      assets,
    });
    expect(await events(u.token, 'user.update')).toContainEqual({
      type: 'user.update',
      user: { id: u.id, name: 'New Name', accent_id: 3, text_status: 'busy', assets },
    });
    expect(await putSelf(publicUrl, u.token, { name: '' })).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    expect(await putSelf(publicUrl, u.token, { text_status: 'x'.repeat(257) })).toMatchObject({ status: 400 });
    expect(await putSelfLocale(publicUrl, u.token, { locale: 'not a locale' })).toMatchObject({ status: 400 });
    expect((await putSelfLocale(publicUrl, u.token, { locale: 'de-CH' })).status).toBe(200);
    expect((await getSelf(publicUrl, u.token)).body.locale).toBe('de-CH');
  });

  it('accepts an update that names no known field, and changes nothing', async () => {
    const u = await createUser(publicUrl, internalUrl, { name: 'Unchanged' });
    const before = (await getSelf(publicUrl, u.token)).body;
    for (const body of [{}, { picture: [] }, { unknown: 'field' }]) {
      const r = await putSelf(publicUrl, u.token, body);
      expect(r.status, `${JSON.stringify(body)}: ${r.text}`).toBe(200);
    }
    expect((await getSelf(publicUrl, u.token)).body).toEqual(before);
  });

  it('adds MLS to the supported protocols, and never removes it again', async () => {
    const u = await createUser(publicUrl, internalUrl);
    expect(
      (await putSelfSupportedProtocols(publicUrl, u.token, { supported_protocols: ['proteus', 'mls'] })).status,
    ).toBe(200);
    expect((await getUserSupportedProtocols(publicUrl, u.token, { domain: 'example.com', id: u.id })).body).toEqual([
      'proteus',
      'mls',
    ]);
    expect(await putSelfSupportedProtocols(publicUrl, u.token, { supported_protocols: ['proteus'] })).toMatchObject({
      status: 409,
      body: wireError(409, 'mls-protocol-error'),
    });
    expect(
      await putSelfSupportedProtocols(publicUrl, u.token, { supported_protocols: ['carrier-pigeon'] }),
    ).toMatchObject({
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
    expect((await headHandle(publicUrl, u.token, handle)).status).toBe(404);
    expect((await putSelfHandle(publicUrl, u.token, { handle })).status).toBe(200);
    expect((await putSelfHandle(publicUrl, u.token, { handle })).status).toBe(200); // idempotent
    expect((await headHandle(publicUrl, u.token, handle)).status).toBe(200);
    expect((await me.head(`/v6/users/handles/${handle}`)).status).toBe(200);
    expect((await headHandle(publicUrl, u.token, 'INVALID')).status).toBe(400);
    expect((await getHandle(publicUrl, u.token, handle)).status).toBe(405);
    expect(await putSelfHandle(publicUrl, other.token, { handle })).toMatchObject({
      status: 409,
      body: wireError(409, 'handle-exists'),
    });
    for (const bad of ['a', 'UPPER', 'has space', 'support', 'x'.repeat(257)])
      expect(await putSelfHandle(publicUrl, u.token, { handle: bad })).toMatchObject({
        status: 400,
        body: wireError(400, 'invalid-handle'),
      });
    const free = `free-${u.id.slice(0, 8)}`;
    const suggested = await checkHandles(publicUrl, u.token, {
      handles: [handle, 'admin', free, `${free}2`],
      return: 1,
    });
    expect(suggested.body).toEqual([free]);
    expect((await events(u.token, 'user.update')).map((e: any) => e.user.handle)).toContain(handle);
  });
});

describe('other users', () => {
  it('shows public profiles without private fields', async () => {
    const u = await createUser(publicUrl, internalUrl, { name: 'Viewer' });
    const v = await createUser(publicUrl, internalUrl, { name: 'Viewed' });
    const me = api(publicUrl, u.token);
    expect((await getUser(publicUrl, u.token, { domain: 'example.com', id: v.id })).body).toEqual({
      id: v.id,
      qualified_id: { id: v.id, domain: 'example.com' },
      name: 'Viewed',
      accent_id: 0,
      assets: [],
      picture: [],
      supported_protocols: ['proteus'],
      legalhold_status: 'no_consent',
    });
    expect(
      await getUser(publicUrl, u.token, { domain: 'example.com', id: '00000000-0000-4000-8000-000000000000' }),
    ).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
    expect((await me.get('/v8/users/example.com/not-a-uuid')).status).toBe(400);
    // A backend this one does not federate with (the shipped allow list names b.example.com only).
    expect(await getUser(publicUrl, u.token, { domain: 'other.example.org', id: v.id })).toMatchObject({
      status: 400,
      body: wireError(400, 'federation-denied'),
    });
  });

  it('lists users by qualified id or handle', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const v = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, u.token);
    const handle = `list-${v.id.slice(0, 8)}`;
    await putSelfHandle(publicUrl, v.token, { handle });
    const remote = { id: v.id, domain: 'far.example.org' };
    const byId = await listUsers(publicUrl, u.token, { qualified_ids: [{ id: v.id, domain: 'example.com' }, remote] });
    expect(byId.body.found.map((p: any) => p.id)).toEqual([v.id]);
    expect(byId.body.failed).toEqual([remote]);
    const byHandle = await listUsers(publicUrl, u.token, { qualified_handles: [{ handle, domain: 'example.com' }] });
    expect(byHandle.body).toEqual({ found: [expect.objectContaining({ id: v.id, handle })] });
    expect((await me.post('/v3/list-users', { qualified_ids: [{ id: v.id, domain: 'example.com' }] })).body).toEqual([
      expect.objectContaining({ id: v.id }),
    ]);
    expect(await listUsers(publicUrl, u.token, {})).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
  });
});
