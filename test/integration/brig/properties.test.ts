import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { api, createUser, login } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import {
  deleteProperties,
  deleteProperty,
  getProperty,
  getPropertyKeys,
  getPropertyValues,
  putProperty,
} from '../../helpers/endpoints/brig.js';

const { publicUrl, internalUrl } = sharedBackend();

describe('user properties', () => {
  it('sets, reads, lists and deletes JSON values, with events to the other sessions', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const other = await login(publicUrl, u.email, u.password);
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${other.token}`);
    const value = { theme: 'dark', sizes: [1, 2.5], nested: { ok: true } };
    expect((await putProperty(publicUrl, u.token, 'webapp', value)).status).toBe(200);
    expect((await socket.next((m) => m.payload[0].type === 'user.properties-set')).payload[0]).toEqual({
      type: 'user.properties-set',
      key: 'webapp',
      value,
    });
    expect((await getProperty(publicUrl, u.token, 'webapp')).body).toEqual(value);
    expect((await putProperty(publicUrl, u.token, 'plain', 42)).status).toBe(200);
    expect((await getPropertyKeys(publicUrl, u.token)).body).toEqual(['plain', 'webapp']);
    expect((await getPropertyValues(publicUrl, u.token)).body).toEqual({ plain: 42, webapp: value });

    expect((await deleteProperty(publicUrl, u.token, 'webapp')).status).toBe(200);
    expect((await socket.next((m) => m.payload[0].type === 'user.properties-delete')).payload[0]).toEqual({
      type: 'user.properties-delete',
      key: 'webapp',
    });
    const gone = await getProperty(publicUrl, u.token, 'webapp');
    expect(gone.status).toBe(404);
    expect(gone.text).toBe('');
    expect((await deleteProperty(publicUrl, u.token, 'webapp')).status).toBe(200);
    expect((await deleteProperties(publicUrl, u.token)).status).toBe(200);
    expect((await socket.next((m) => m.payload[0].type === 'user.properties-clear')).payload[0]).toEqual({
      type: 'user.properties-clear',
    });
    expect((await getPropertyKeys(publicUrl, u.token)).body).toEqual([]);
    await socket.close();
  });

  it('refuses bad keys and values with 400/403, never 500', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, u.token);
    expect(await me.put('/v8/properties/caf%C3%A9', 1)).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    expect(await me.put('/v8/properties/tab%09key', 1)).toMatchObject({ status: 400 });
    expect(await putProperty(publicUrl, u.token, 'k'.repeat(1025), 1)).toMatchObject({
      status: 403,
      body: wireError(403, 'property-key-too-large'),
    });
    const notJson = await call(publicUrl, '/v8/properties/x', {
      method: 'PUT',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(notJson).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
    // Values beyond setPropertyMaxValueLen: see limits.test.ts (the default equals the 512k ingress limit).
    expect(await putProperty(publicUrl, u.token, 'big', 'x'.repeat(524_289))).toMatchObject({ status: 413 });
  });

  it('allows at most 16 keys, but overwriting one at the maximum', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, u.token);
    for (let i = 0; i < 16; i++) expect((await me.put(`/v8/properties/k${i}`, i)).status).toBe(200);
    expect(await putProperty(publicUrl, u.token, 'k16', 16)).toMatchObject({
      status: 403,
      body: wireError(403, 'too-many-properties'),
    });
    expect((await putProperty(publicUrl, u.token, 'k3', 'again')).status).toBe(200);
    expect((await getProperty(publicUrl, u.token, 'k3')).body).toBe('again');
  });
});
