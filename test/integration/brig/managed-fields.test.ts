import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { api, invitedMember, teamOwner } from '../../helpers/users.js';
import { getSelf, putSelf, putSelfHandle, putSelfLocale } from '../../helpers/endpoints/brig.js';
import { putTeamFeature } from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();

describe('brig: name and handle under MLS end-to-end identity', () => {
  it('reports users with a handle as managed by SCIM and locks their name and handle', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const withHandle = await invitedMember(publicUrl, owner);
    const without = await invitedMember(publicUrl, owner);
    const handle = `h-${crypto.randomUUID().slice(0, 8)}`;
    expect((await putSelfHandle(publicUrl, withHandle.token, { handle })).status).toBe(200);
    expect((await getSelf(publicUrl, withHandle.token)).body.managed_by).toBe('wire');

    expect((await api(internalUrl).put(`/i/teams/${owner.team}/features/mlsE2EId/unlocked`)).status).toBe(200);
    const enabled = await putTeamFeature(publicUrl, owner.token, owner.team, 'mlsE2EId', {
      status: 'enabled',
      config: { verificationExpiration: 86400, crlProxy: 'https://crl.example.com' },
    });
    expect(enabled.status, enabled.text).toBe(200);
    expect((await getSelf(publicUrl, withHandle.token)).body.managed_by).toBe('scim');
    expect(await putSelf(publicUrl, withHandle.token, { name: 'Other' })).toMatchObject({
      status: 403,
      body: wireError(403, 'managed-by-scim'),
    });
    expect(await putSelfHandle(publicUrl, withHandle.token, { handle: `${handle}-2` })).toMatchObject({
      status: 403,
      body: wireError(403, 'managed-by-scim'),
    });
    // Setting a field to its value is no change; the locale stays the user's.
    expect((await putSelfHandle(publicUrl, withHandle.token, { handle })).status).toBe(200);
    expect((await putSelfLocale(publicUrl, withHandle.token, { locale: 'de' })).status).toBe(200);
    expect((await getSelf(publicUrl, without.token)).body.managed_by).toBe('wire');
    expect((await putSelfHandle(publicUrl, without.token, { handle: `${handle}-3` })).status).toBe(200);
    expect((await getSelf(publicUrl, without.token)).body.managed_by).toBe('scim');
  });
});
