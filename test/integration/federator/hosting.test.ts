import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/lib/bundle.js';
import { readConfigTexts } from '../../../tools/lib/config-dir.js';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { startLegalholdService, type LegalholdService } from '../../helpers/legalhold-service.js';
import { api, createUser, teamOwner } from '../../helpers/users.js';

// A federator on another host than the worker, as production runs it: the two share the secret
// FEDERATOR_INTERNAL_TOKEN, and the worker calls the federator with it.

const B = 'b.example.com';
const TOKEN = 'c2hhcmVkLWJ5LXdvcmtlci1hbmQtZmVkZXJhdG9y';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('a federator on its own host', () => {
  let b: TestBackend;
  let service: LegalholdService;

  beforeAll(async () => {
    const secrets = { FEDERATOR_INTERNAL_TOKEN: TOKEN };
    [b, service] = await Promise.all([
      startEditedBackend([], { base: readConfigTexts(join(ROOT, 'config', B)), sidecar: true, secrets }),
      startLegalholdService(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([b?.stop(), service?.stop()]);
  });

  it("refuses calls to the federator's internal face without the token", async () => {
    const face = b.federator!.internalUrl.origin;
    expect((await call(face, '/i/status')).body).toEqual(wireError(401, 'unauthorized'));
    expect((await call(face, '/i/status', { headers: bearer(`${TOKEN}x`) })).status).toBe(401);
    expect((await call(face, '/i/status', { headers: { authorization: TOKEN } })).status).toBe(401);
    expect((await call(face, '/i/status', { headers: bearer(TOKEN) })).status).toBe(200);
  });

  it('has the worker send the token: calls to remotes and to integrations go through', async () => {
    const u = await createUser(b.publicUrl, b.internalUrl);
    // The federator answered past its token check: it asked the worker's allow list.
    const remote = await api(b.publicUrl, u.token).get(`/v8/users/c.example.com/${u.id}`);
    expect(remote.body).toEqual(wireError(400, 'federation-denied'));

    const owner = await teamOwner(b.publicUrl, b.internalUrl);
    const admin = api(b.publicUrl, owner.token);
    expect((await admin.put(`/v8/teams/${owner.team}/features/legalhold`, { status: 'enabled' })).status).toBe(200);
    const created = await admin.post(`/v8/teams/${owner.team}/legalhold/settings`, {
      base_url: service.baseUrl,
      public_key: service.publicKeyPem,
      auth_token: service.authToken,
    });
    expect(created.status, created.text).toBe(201);
  });
});
