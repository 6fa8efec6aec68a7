import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { api, invitedMember, teamOwner } from '../../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();

describe('brig: name and handle under MLS end-to-end identity', () => {
  it('reports users with a handle as managed by SCIM and locks their name and handle', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const withHandle = await invitedMember(publicUrl, owner);
    const without = await invitedMember(publicUrl, owner);
    const handle = `h-${crypto.randomUUID().slice(0, 8)}`;
    expect((await api(publicUrl, withHandle.token).put('/v8/self/handle', { handle })).status).toBe(200);
    expect((await api(publicUrl, withHandle.token).get('/v8/self')).body.managed_by).toBe('wire');

    expect((await api(internalUrl).put(`/i/teams/${owner.team}/features/mlsE2EId/unlocked`)).status).toBe(200);
    const enabled = await api(publicUrl, owner.token).put(`/v8/teams/${owner.team}/features/mlsE2EId`, {
      status: 'enabled',
      config: { verificationExpiration: 86400, crlProxy: 'https://crl.example.com' },
    });
    expect(enabled.status, enabled.text).toBe(200);

    const me = api(publicUrl, withHandle.token);
    expect((await me.get('/v8/self')).body.managed_by).toBe('scim');
    expect(await me.put('/v8/self', { name: 'Other' })).toMatchObject({
      status: 403,
      body: wireError(403, 'managed-by-scim'),
    });
    expect(await me.put('/v8/self/handle', { handle: `${handle}-2` })).toMatchObject({
      status: 403,
      body: wireError(403, 'managed-by-scim'),
    });
    // Setting a field to its value is no change; the locale stays the user's.
    expect((await me.put('/v8/self/handle', { handle })).status).toBe(200);
    expect((await me.put('/v8/self/locale', { locale: 'de' })).status).toBe(200);

    // A member without a handle picks one (which their certificate will then carry).
    const other = api(publicUrl, without.token);
    expect((await other.get('/v8/self')).body.managed_by).toBe('wire');
    expect((await other.put('/v8/self/handle', { handle: `${handle}-3` })).status).toBe(200);
    expect((await other.get('/v8/self')).body.managed_by).toBe('scim');
  });
});
