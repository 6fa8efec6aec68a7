import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../tools/lib/ports.js';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { api, createUser } from '../../helpers/users.js';
import { deleteSelf, getSelfConsent, putSelfConsent } from '../../helpers/endpoints/brig.js';

// Issue 40, point 3: the clients' marketing consent (`/self/consent`), served unversioned and in
// every version as wire's nginz routes it. A backend of its own, to see what an account deletion
// leaves.
/**
 * A worker beside the backend that reads a user's consents from their Account object (on a
 * loopback socket of its own): what an account deletion leaves, which no API shows.
 */
const accountProbe = (port: number) => ({
  name: 'account-probe',
  modules: true,
  compatibilityDate: '2026-04-20',
  durableObjects: { ACCOUNTS: { className: 'Account', scriptName: 'svc-objects' } },
  unsafeDirectSockets: [{ host: '127.0.0.1', port }],
  script: `export default {
  async fetch(request, env) {
    const user = new URL(request.url).searchParams.get('user');
    return Response.json(await env.ACCOUNTS.get(env.ACCOUNTS.idFromName(user)).consentList(user));
  },
};`,
});

describe('GET and PUT /self/consent', () => {
  let b: TestBackend;
  let probePort: number;
  beforeAll(async () => {
    probePort = await freePort();
    b = await startEditedBackend([], { extraWorkers: [accountProbe(probePort)] });
  });
  afterAll(() => b?.stop());

  it('keeps the latest answer per type, as the web app and the mobile clients send it', async () => {
    const u = await createUser(b.publicUrl, b.internalUrl);
    const me = api(b.publicUrl, u.token);
    expect(await me.get('/v7/self/consent')).toMatchObject({ status: 200, body: { results: [] } });

    const webapp = { source: 'Wire 2024.01.01', type: 2, value: 1 };
    expect((await me.put('/v7/self/consent', webapp)).status).toBe(200);
    expect((await me.put('/self/consent', { type: 1, value: 1, source: 'iOS 3.110' })).status).toBe(200);
    expect((await putSelfConsent(b.publicUrl, u.token, { type: 2, value: 0, source: 'Android 4.6' })).status).toBe(200);
    const expected = {
      results: [
        { type: 1, value: 1, source: 'iOS 3.110' },
        { type: 2, value: 0, source: 'Android 4.6' },
      ],
    };
    for (const path of ['/self/consent', '/v0/self/consent', '/v8/self/consent'])
      expect(await me.get(path), path).toMatchObject({ status: 200, body: expected });
    const other = await createUser(b.publicUrl, b.internalUrl);
    expect((await getSelfConsent(b.publicUrl, other.token)).body).toEqual({ results: [] });
  });

  it('refuses malformed answers with 400 bad-request and callers without a token with 401', async () => {
    const u = await createUser(b.publicUrl, b.internalUrl);
    for (const body of [
      { type: 2, value: 'yes', source: 'Webapp' },
      { type: 7, value: 1, source: 'Webapp' },
      { type: 2, value: 2, source: 'Webapp' },
      { type: 2, value: 1 },
      { type: 2, value: 1, source: null },
      [],
    ])
      expect(await putSelfConsent(b.publicUrl, u.token, body), JSON.stringify(body)).toMatchObject({
        status: 400,
        body: wireError(400, 'bad-request'),
      });
    const malformed = await call(b.publicUrl, '/v8/self/consent', {
      method: 'PUT',
      headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
      body: '{"type":2,',
    });
    expect(malformed).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
    expect((await getSelfConsent(b.publicUrl, u.token)).body).toEqual({ results: [] });
    for (const reply of [
      await getSelfConsent(b.publicUrl, undefined),
      await putSelfConsent(b.publicUrl, undefined, { type: 2, value: 1, source: 'Webapp' }),
    ])
      expect(reply).toMatchObject({ status: 401, body: { code: 401, label: expect.any(String) } });
  });

  it('forgets the answers with the account', async () => {
    const u = await createUser(b.publicUrl, b.internalUrl);
    expect((await putSelfConsent(b.publicUrl, u.token, { type: 2, value: 1, source: 'Webapp' })).status).toBe(200);
    const stored = async () => (await fetch(`http://127.0.0.1:${probePort}/?user=${u.id}`)).json();
    expect(await stored()).toEqual([{ type: 2, value: 1, source: 'Webapp' }]);
    expect((await deleteSelf(b.publicUrl, u.token, { password: u.password })).status).toBe(200);
    expect(await stored()).toEqual([]);
  });
});
