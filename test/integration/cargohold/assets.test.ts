import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assetBody, fetchRedirect, getAsset, uploadAsset } from '../../helpers/assets.js';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { testBucket } from '../../helpers/object-store.js';
import { api, cookieOf, createUser, teamOwner, uniqueEmail } from '../../helpers/users.js';
import { postRegister } from '../../helpers/endpoints/brig.js';
import { putTeamFeature } from '../../helpers/endpoints/galley.js';
import { deleteAssetToken, postAssetToken } from '../../helpers/endpoints/cargohold.js';

const { publicUrl, internalUrl } = sharedBackend();
const bucket = testBucket();
const KEY = /^3-[1-5]-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MIB = 1024 * 1024;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('assets: upload and download', () => {
  it('round-trips a 1-byte and a 1 MiB private asset; others need its token', async () => {
    const [alice, bob] = await Promise.all([createUser(publicUrl, internalUrl), createUser(publicUrl, internalUrl)]);
    for (const data of [Uint8Array.of(42), randomBytes(MIB)]) {
      const up = await uploadAsset(publicUrl, alice.token, data);
      expect(up.status, up.text).toBe(201);
      expect(up.body).toEqual({
        key: expect.stringMatching(KEY),
        domain: 'example.com',
        token: expect.stringMatching(/^[A-Za-z0-9_-]{22}==$/),
      });
      expect(up.body.key.startsWith('3-2-')).toBe(true); // persistent
      expect(up.headers.get('location')).toBe(`assets/v4/example.com/${up.body.key}`);
      expect(await bucket.exists(up.body.key)).toBe(true);

      const path = `/v8/assets/example.com/${up.body.key}`;
      const own = await getAsset(publicUrl, path, alice.token);
      expect(own.status).toBe(302);
      expect(own.text).toBe('');
      const fetched = await fetchRedirect(own);
      expect(fetched.status).toBe(200);
      expect(sha(fetched.bytes)).toBe(sha(data));

      // Others: with the token (query or header), else an opaque 404.
      expect(
        (await getAsset(publicUrl, `${path}?asset_token=${encodeURIComponent(up.body.token)}`, bob.token)).status,
      ).toBe(302);
      expect((await getAsset(publicUrl, path, bob.token, { 'asset-token': up.body.token })).status).toBe(302);
      expect(await getAsset(publicUrl, path, bob.token)).toMatchObject({
        status: 404,
        body: wireError(404, 'not-found'),
      });
      const wrong = 'AAAAAAAAAAAAAAAAAAAAAA==';
      expect(await getAsset(publicUrl, path, bob.token, { 'asset-token': wrong })).toMatchObject({
        status: 404,
        body: wireError(404, 'not-found'),
      });
      // The header wins over the query parameter.
      expect(
        (
          await getAsset(publicUrl, `${path}?asset_token=${encodeURIComponent(up.body.token)}`, bob.token, {
            'asset-token': wrong,
          })
        ).status,
      ).toBe(404);
    }
  });

  it('serves public assets to anyone without a token (not with a wrong one) and sets expiry by retention', async () => {
    const [alice, bob] = await Promise.all([createUser(publicUrl, internalUrl), createUser(publicUrl, internalUrl)]);
    const up = await uploadAsset(publicUrl, alice.token, randomBytes(100), { public: true, retention: 'volatile' });
    expect(up.status).toBe(201);
    expect(up.body.token).toBeUndefined();
    expect(up.body.key.startsWith('3-3-')).toBe(true);
    const expires = Date.parse(up.body.expires);
    expect(up.body.expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(expires - (Date.now() + 28 * 24 * 3600 * 1000))).toBeLessThan(60_000);
    const path = `/v8/assets/example.com/${up.body.key}`;
    expect((await getAsset(publicUrl, path, bob.token)).status).toBe(302);
    expect((await getAsset(publicUrl, path, bob.token, { 'asset-token': 'AAAAAAAAAAAAAAAAAAAAAA==' })).status).toBe(
      404,
    );

    const retentions = { eternal: '1', 'eternal-infrequent_access': '4', expiring: '5' };
    for (const [retention, digit] of Object.entries(retentions)) {
      const r = await uploadAsset(publicUrl, alice.token, Uint8Array.of(1), { retention });
      expect(r.body.key.startsWith(`3-${digit}-`)).toBe(true);
      expect(r.body.expires === undefined).toBe(retention !== 'expiring');
    }
    // null reads as absent, as in wire-server: private and persistent
    const nulls = await uploadAsset(publicUrl, alice.token, Uint8Array.of(1), { public: null, retention: null });
    expect(nulls.status, nulls.text).toBe(201);
    expect(nulls.body.key.startsWith('3-2-')).toBe(true);
    expect(nulls.body.token).toEqual(expect.any(String));
  });

  it('streams a 100 MiB asset for a team member and hands back the same bytes', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const data = randomBytes(100 * MIB);
    const up = await uploadAsset(publicUrl, owner.token, data);
    expect(up.status, up.text).toBe(201);
    const fetched = await fetchRedirect(
      await getAsset(publicUrl, `/v8/assets/example.com/${up.body.key}`, owner.token),
    );
    expect(fetched.bytes.byteLength).toBe(data.byteLength);
    expect(sha(fetched.bytes)).toBe(sha(data));
  }, 180_000);

  it('refuses assets over the limit (personal users a stricter one), empty ones and malformed bodies', async () => {
    const [personal, owner] = await Promise.all([
      createUser(publicUrl, internalUrl),
      teamOwner(publicUrl, internalUrl),
    ]);
    // The declared length decides before any byte is read.
    const declare = (token: string, declaredLength: number) => {
      const { body, contentType } = assetBody(Uint8Array.of(1), undefined, { declaredLength });
      return call(publicUrl, '/v8/assets', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
        body,
      });
    };
    expect(await declare(personal.token, 25 * MIB + 1)).toMatchObject({
      status: 413,
      body: wireError(413, 'client-error'),
    });
    expect(await declare(owner.token, 100 * MIB + 1)).toMatchObject({
      status: 413,
      body: wireError(413, 'client-error'),
    });
    expect(await uploadAsset(publicUrl, personal.token, new Uint8Array(0))).toMatchObject({
      status: 400,
      body: wireError(400, 'invalid-length'),
    });

    const post = (body: string, contentType = 'multipart/mixed; boundary=b') =>
      call(publicUrl, '/v8/assets', {
        method: 'POST',
        headers: { authorization: `Bearer ${personal.token}`, 'content-type': contentType },
        body,
      });
    const part = (headers: string, content: string) => `${headers}\r\n\r\n${content}\r\n`;
    const meta = part('Content-Type: application/json\r\nContent-Length: 2', '{}');
    const data = part('Content-Type: application/octet-stream\r\nContent-Length: 1', 'x');
    expect((await post(`--b\r\n${meta}--b\r\n${data}--b--\r\n`)).status).toBe(201); // the minimal valid body
    // Blank lines may follow the close delimiter (wire-server's own sample upload ends so).
    expect((await post(`--b\r\n${meta}--b\r\n${data}--b--\r\n\r\n`)).status).toBe(201);
    const malformed = [
      post(`--b\r\n${meta}--b\r\n${data}--b--\r\n`, 'application/octet-stream'),
      post(`--b\r\n${part('Content-Type: text/plain\r\nContent-Length: 2', '{}')}--b\r\n${data}--b--\r\n`),
      post(
        `--b\r\n${part('Content-Type: application/json\r\nX-Extra: 1\r\nContent-Length: 2', '{}')}--b\r\n${data}--b--\r\n`,
      ),
      post(`--b\r\n${part('Content-Type: application/json\r\nContent-Length: 2', '{]')}--b\r\n${data}--b--\r\n`),
      post(
        `--b\r\n${part('Content-Type: application/json\r\nContent-Length: 23', '{"retention":"forever"}')}--b\r\n${data}--b--\r\n`,
      ),
      post(`--b\r\n${meta}--b\r\n${part('Content-Type: application/octet-stream', 'x')}--b--\r\n`),
      post(`--b\r\n${part('Content-Type: application/json', '{}')}--b\r\n${data}--b--\r\n`),
      post(`--b\r\n${meta}--b\r\n${data}--c--\r\n`), // the closing boundary must follow the data
    ];
    for (const r of await Promise.all(malformed))
      expect(r, r.text).toMatchObject({ status: 400, body: wireError(400, 'client-error') });
    // Shorter than its Content-Length.
    expect(
      await post(
        `--b\r\n${meta}--b\r\n${part('Content-Type: application/octet-stream\r\nContent-Length: 100', 'x')}--b--\r\n`,
      ),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'incomplete-body'),
    });
  });

  it('takes a data part of any media type (wire-server’s own tests upload text/plain), and dates its answer', async () => {
    const alice = await createUser(publicUrl, internalUrl);
    const post = (dataType: string | undefined) => {
      const meta = '{"public":false,"retention":"persistent"}';
      const typeLine = dataType === undefined ? '' : `Content-Type: ${dataType}\r\n`;
      const body =
        `--b\r\nContent-Type: application/json\r\nContent-Length: ${meta.length}\r\n\r\n${meta}\r\n` +
        `--b\r\n${typeLine}Content-Length: 5\r\n\r\nhello\r\n--b--\r\n`;
      return call(publicUrl, '/v8/assets', {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'multipart/mixed; boundary=b' },
        body,
      });
    };
    const up = await post('text/plain; charset=utf-8');
    expect(up.status, up.text).toBe(201);
    const date = up.headers.get('date');
    expect(date).toMatch(/^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/);
    expect(Math.abs(Date.parse(date!) - Date.now())).toBeLessThan(60_000);
    const fetched = await fetchRedirect(
      await getAsset(publicUrl, `/v8/assets/example.com/${up.body.key}`, alice.token),
    );
    expect(Buffer.from(fetched.bytes).toString()).toBe('hello');
    const gone = await getAsset(publicUrl, `/v8/assets/example.com/3-2-${crypto.randomUUID()}`, alice.token);
    expect(gone.status).toBe(404);
    expect(Date.parse(gone.headers.get('date')!)).toBeGreaterThanOrEqual(Date.parse(date!));
    expect((await post('image/png')).status).toBe(201);
    for (const r of [await post(undefined), await post('not-a-type')])
      expect(r, r.text).toMatchObject({ status: 400, body: wireError(400, 'client-error') });
  });

  it('refuses uploads by users whose email is not verified', async () => {
    const email = uniqueEmail('unverified');
    const reg = await postRegister(publicUrl, { name: 'U', email, password: 'secret-password' });
    expect(reg.status).toBe(201);
    const access = await call(publicUrl, '/access', { method: 'POST', headers: { cookie: cookieOf(reg) } });
    expect(access.status).toBe(200);
    expect(await uploadAsset(publicUrl, access.body.access_token, Uint8Array.of(1))).toMatchObject({
      status: 403,
      body: wireError(403, 'unverified-user'),
    });
  });

  it('refuses uploads in a team whose fileSharing feature is disabled', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    expect(
      (await putTeamFeature(publicUrl, owner.token, owner.team, 'fileSharing', { status: 'disabled' })).status,
    ).toBe(200);
    expect(await uploadAsset(publicUrl, owner.token, Uint8Array.of(1))).toMatchObject({
      status: 403,
      body: wireError(403, 'file-sharing-disabled'),
    });
    expect(
      (await putTeamFeature(publicUrl, owner.token, owner.team, 'fileSharing', { status: 'enabled' })).status,
    ).toBe(200);
    expect((await uploadAsset(publicUrl, owner.token, Uint8Array.of(1))).status).toBe(201);
  });

  it('answers remote keys through federation, and bad keys and tokens as bad requests', async () => {
    const u = await createUser(publicUrl, internalUrl);
    const key = `3-2-${crypto.randomUUID()}`;
    // The shared backend's DNS knows no remote: b.example.com cannot be found.
    expect(await getAsset(publicUrl, `/v8/assets/b.example.com/${key}`, u.token)).toMatchObject({
      status: 422,
      body: wireError(422, 'invalid-domain'),
    });
    expect(await api(publicUrl, u.token).del(`/v8/assets/b.example.com/${key}`)).toMatchObject({
      status: 422,
      body: wireError(422, 'federation-not-implemented'),
    });
    expect(await getAsset(publicUrl, `/v8/assets/example.com/${key}`, u.token)).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
    expect((await getAsset(publicUrl, '/v8/assets/example.com/not-a-key', u.token)).status).toBe(400);
    expect((await getAsset(publicUrl, `/v8/assets/example.com/${key}?asset_token=a%2Fb`, u.token)).status).toBe(400);
    // A parameter without a value names no token (as Servant reads it); an empty one opens nothing.
    const other = await createUser(publicUrl, internalUrl);
    const own = await uploadAsset(publicUrl, u.token, Uint8Array.of(1), { public: true });
    const path = `/v8/assets/example.com/${own.body.key}`;
    expect((await getAsset(publicUrl, `${path}?asset_token`, other.token)).status).toBe(302);
    expect((await getAsset(publicUrl, `${path}?asset_token=`, u.token)).status).toBe(302);
    expect(await getAsset(publicUrl, `${path}?asset_token=`, other.token)).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
    expect(await getAsset(publicUrl, `/v8/assets/example.com/${key}?asset_token`, u.token)).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
    expect((await getAsset(publicUrl, `/v8/assets/example.com/${key}`, '')).status).toBe(401);
  });
});

describe('assets: owner operations', () => {
  it('lets only the owner delete an asset; its bytes are gone too', async () => {
    const [alice, bob] = await Promise.all([createUser(publicUrl, internalUrl), createUser(publicUrl, internalUrl)]);
    const up = await uploadAsset(publicUrl, alice.token, randomBytes(10), { public: true });
    const path = `/v8/assets/example.com/${up.body.key}`;
    expect(await api(publicUrl, bob.token).del(path)).toMatchObject({
      status: 403,
      body: wireError(403, 'unauthorised'),
    });
    expect((await getAsset(publicUrl, path, bob.token)).status).toBe(302);
    const del = await api(publicUrl, alice.token).del(path);
    expect(del.status).toBe(200);
    expect(await bucket.exists(up.body.key)).toBe(false);
    expect((await getAsset(publicUrl, path, alice.token)).status).toBe(404);
    expect(await api(publicUrl, alice.token).del(path)).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
  });

  it('renews a token (the old one stops working) and deletes it (the asset becomes public)', async () => {
    const [alice, bob] = await Promise.all([createUser(publicUrl, internalUrl), createUser(publicUrl, internalUrl)]);
    const up = await uploadAsset(publicUrl, alice.token, randomBytes(10));
    const path = `/v8/assets/example.com/${up.body.key}`;
    expect(await postAssetToken(publicUrl, bob.token, up.body.key)).toMatchObject({
      status: 403,
      body: wireError(403, 'unauthorised'),
    });
    expect(await deleteAssetToken(publicUrl, bob.token, up.body.key)).toMatchObject({
      status: 403,
      body: wireError(403, 'unauthorised'),
    });

    const renewed = await postAssetToken(publicUrl, alice.token, up.body.key);
    expect(renewed.status).toBe(200);
    expect(renewed.body).toEqual({ token: expect.stringMatching(/==$/) });
    expect(renewed.body.token).not.toBe(up.body.token);
    expect((await getAsset(publicUrl, path, bob.token, { 'asset-token': up.body.token })).status).toBe(404);
    expect((await getAsset(publicUrl, path, bob.token, { 'asset-token': renewed.body.token })).status).toBe(302);

    expect((await deleteAssetToken(publicUrl, alice.token, up.body.key)).status).toBe(200);
    expect((await getAsset(publicUrl, path, bob.token)).status).toBe(302);
    expect((await api(publicUrl, alice.token).post(`/v8/assets/3-2-${crypto.randomUUID()}/token`)).status).toBe(404);
  });
});

describe('assets: versions', () => {
  it('serves v0 and v1 clients at /assets/v3 and /assets/v4, later ones at /assets', async () => {
    const [alice, bob] = await Promise.all([createUser(publicUrl, internalUrl), createUser(publicUrl, internalUrl)]);
    const up = await uploadAsset(publicUrl, alice.token, randomBytes(10), undefined, { version: 'v1' });
    expect(up.status).toBe(201);
    const { key, token } = up.body;
    expect((await getAsset(publicUrl, `/v1/assets/v3/${key}`, alice.token)).status).toBe(302);
    expect((await getAsset(publicUrl, `/v0/assets/v4/example.com/${key}?asset_token=${token}`, bob.token)).status).toBe(
      302,
    );
    expect((await getAsset(publicUrl, `/v2/assets/example.com/${key}`, alice.token)).status).toBe(302);
    expect(await api(publicUrl, alice.token).post(`/v2/assets/v3/${key}/token`)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-endpoint'),
    });
    expect((await uploadAsset(publicUrl, alice.token, Uint8Array.of(1), undefined, { version: 'v2' })).status).toBe(
      201,
    );
    expect((await api(publicUrl, alice.token).post(`/v1/assets/v3/${key}/token`)).status).toBe(200);
    expect((await api(publicUrl, alice.token).del(`/v1/assets/v3/${key}`)).status).toBe(200);
  });
});
