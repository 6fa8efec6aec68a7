import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { addClient } from '../../helpers/clients.js';
import { call, wireError } from '../../helpers/http.js';
import { api, createUser } from '../../helpers/users.js';
import { putClient } from '../../helpers/endpoints/brig.js';

const { publicUrl, internalUrl } = sharedBackend();
const LH = 'legalhold-implicit-consent';
const CN = 'consumable-notifications';

describe('GET /clients/{client}/capabilities', () => {
  it("shows what the client posted, in each version's shape; consumable-notifications only from v8", async () => {
    const u = await createUser(publicUrl, internalUrl);
    const both = await addClient(publicUrl, u, { capabilities: [LH, CN] });
    const none = await addClient(publicUrl, u, { password: u.password });
    const get = async (v: string, client: string) => {
      const r = await api(publicUrl, u.token).get(`/${v}/clients/${client}/capabilities`);
      expect(r.status, r.text).toBe(200);
      return r.body;
    };
    expect([...(await get('v8', both))].sort()).toEqual([CN, LH]);
    expect(await get('v7', both)).toEqual([LH]);
    expect(await get('v6', both)).toEqual({ capabilities: [LH] });
    expect(await get('v0', both)).toEqual({ capabilities: [LH] });
    expect(await get('v8', none)).toEqual([]);
    expect(await get('v5', none)).toEqual({ capabilities: [] });

    expect((await putClient(publicUrl, u.token, none, { capabilities: [LH] })).status).toBe(200);
    expect(await get('v8', none)).toEqual([LH]);
  });

  it("reads only the caller's own clients: 404 client-not-found, 400 for a malformed id, 401 without a token", async () => {
    const [u, other] = [await createUser(publicUrl, internalUrl), await createUser(publicUrl, internalUrl)];
    const theirs = await addClient(publicUrl, other);
    for (const v of ['v8', 'v7', 'v6']) {
      expect(await api(publicUrl, u.token).get(`/${v}/clients/${theirs}/capabilities`)).toMatchObject({
        status: 404,
        body: wireError(404, 'client-not-found'),
      });
      expect(await api(publicUrl, u.token).get(`/${v}/clients/abc123/capabilities`)).toMatchObject({
        status: 404,
        body: wireError(404, 'client-not-found'),
      });
    }
    expect(await api(publicUrl, u.token).get('/v8/clients/not-hex!/capabilities')).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    expect((await call(publicUrl, `/v8/clients/${theirs}/capabilities`)).status).toBe(401);
  });
});
