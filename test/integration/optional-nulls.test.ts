import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../helpers/backend.js';
import { addClient } from '../helpers/clients.js';
import { wireError } from '../helpers/http.js';
import { proteusKeys } from '../helpers/prekeys.js';
import { activationCode, api, createUser, teamOwner, uniqueEmail } from '../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();
const anon = api(publicUrl);

// Issue 40, point 2: wire-server reads null in an optional field as the field's absence.
describe('null in an optional field of a request body', () => {
  it("registers with the web app's body (its unset fields null) on /v7/register", async () => {
    const email = uniqueEmail('webapp');
    expect((await anon.post('/v7/activate/send', { email, locale: 'en-US' })).status).toBe(200);
    const body = {
      accent_id: 1,
      assets: null,
      email,
      email_code: await activationCode(internalUrl, email),
      invitation_code: null,
      label: null,
      locale: 'en-US',
      name: 'Web App',
      password: 'secret-password',
      team: null,
      termsAccepted: true,
    };
    const r = await anon.post('/v7/register', body);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ name: 'Web App', email, locale: 'en-US', accent_id: 1, assets: [] });
    expect(r.body.team).toBeUndefined();
  });

  it('adds a client without label and model, and keeps the assets of a profile update without them', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, u.token);
    const client = await me.post('/v8/clients', {
      type: 'permanent',
      ...(await proteusKeys(1)),
      label: null,
      model: null,
      class: null,
      capabilities: null,
    });
    expect(client.status, client.text).toBe(201);
    expect(client.body.label).toBeUndefined();
    expect(client.body.model).toBeUndefined();

    const assets = [{ key: '3-2-asset', type: 'image', size: 'preview' }];
    expect((await me.put('/v8/self', { assets })).status).toBe(200);
    const update = await me.put('/v8/self', { name: 'Renamed', assets: null, accent_id: null, text_status: null });
    expect(update.status, update.text).toBe(200);
    expect((await me.get('/v8/self')).body).toMatchObject({ name: 'Renamed', assets });
  });

  it('reads nulls as absent in bodies read by hand: a legacy JSON message, a feature config', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const sender = await addClient(publicUrl, u);
    const me = api(publicUrl, u.token);
    const conv = await me.post('/v8/conversations', { name: 'Alone', qualified_users: [] });
    expect(conv.status, conv.text).toBe(201);
    const sent = await me.post(`/v8/conversations/${conv.body.id}/otr/messages`, {
      sender,
      recipients: {},
      native_push: null,
      transient: null,
      native_priority: null,
      data: null,
      report_missing: null,
    });
    expect(sent.status, sent.text).toBe(201);

    const owner = await teamOwner(publicUrl, internalUrl);
    // Locked by default, and galley's internal PUT respects the lock (as wire's does).
    const unlocked = await api(internalUrl).put(`/i/teams/${owner.team}/features/enforceFileDownloadLocation/unlocked`);
    expect(unlocked.status, unlocked.text).toBe(200);
    const feature = await api(internalUrl).put(`/i/teams/${owner.team}/features/enforceFileDownloadLocation`, {
      status: 'enabled',
      lockStatus: 'unlocked',
      ttl: null,
      config: { enforcedDownloadLocation: null },
    });
    expect(feature.status, feature.text).toBe(200);
    expect(feature.body).toMatchObject({ status: 'enabled', config: {} });
  });

  it('still refuses null in a required field with 400 bad-request', async () => {
    const r = await anon.post('/v7/register', {
      name: null,
      email: uniqueEmail('nameless'),
      password: 'secret-password',
    });
    expect(r).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
    expect(r.body.message).toContain('name');
    const u = await createUser(publicUrl, internalUrl);
    expect(await api(publicUrl, u.token).put('/v8/self/locale', { locale: null })).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
  });
});
