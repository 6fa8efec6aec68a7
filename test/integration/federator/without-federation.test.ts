import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import type { Edit } from '../../helpers/config-files.js';
import { call, wireError } from '../../helpers/http.js';
import { startLegalholdService, type LegalholdService } from '../../helpers/legalhold-service.js';
import { teamOwner } from '../../helpers/users.js';
import { postLegalholdSettings, putTeamFeature } from '../../helpers/endpoints/galley.js';

const federationOff: Edit[] = ['brig.yaml', 'galley.yaml', 'cargohold.yaml', 'background-worker.yaml'].map((f) => [
  f,
  ['enableFederation'],
  false,
]);

describe('the sidecar of a backend with federation off', () => {
  let b: TestBackend;
  let service: LegalholdService;

  beforeAll(async () => {
    [b, service] = await Promise.all([startEditedBackend(federationOff, { sidecar: true }), startLegalholdService()]);
  });
  afterAll(async () => {
    await b?.stop();
    await service?.stop();
  });

  it('runs its internal face only, and refuses calls to other backends', async () => {
    const federator = b.federator!;
    expect(federator.externalPort).toBeUndefined();
    expect((await call(federator.internalUrl.origin, '/i/status')).status).toBe(200);
    const rpc = await call(federator.internalUrl.origin, '/rpc/b.example.com/brig/api-version', {
      method: 'POST',
      body: '{}',
    });
    expect(rpc.body).toEqual(wireError(400, 'federation-not-enabled'));
  });

  it("makes the worker's pinned calls to integrations: a team registers its legal hold service", async () => {
    const owner = await teamOwner(b.publicUrl, b.internalUrl);
    expect(
      (await putTeamFeature(b.publicUrl, owner.token, owner.team, 'legalhold', { status: 'enabled' })).status,
    ).toBe(200);
    const created = await postLegalholdSettings(b.publicUrl, owner.token, owner.team, {
      base_url: service.baseUrl,
      public_key: service.publicKeyPem,
      auth_token: service.authToken,
    });
    expect(created.status, created.text).toBe(201);
    expect(service.callsTo('/status')).toHaveLength(1);
  });
});
