// Scenarios of wire-server's integration/test/Test/Cargohold/*.hs that one backend can play.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  assetBody,
  type AssetMetadata,
  fetchRedirect,
  getAsset,
  getAssetAtHost,
  uploadAsset,
} from '../helpers/assets.js';
import { call, type Reply } from '../helpers/http.js';
import { createUser, type TestUser } from '../helpers/users.js';
import { as, guestUser, internal, pub } from './lib/env.js';
import { deleteSelf } from '../helpers/endpoints/brig.js';
import { deleteAssetToken, postAssetToken } from '../helpers/endpoints/cargohold.js';

const hello = new TextEncoder().encode('Hello World');

/** wire-server's uploadSimpleV3: the v1 `/assets/v3` upload. */
const uploadV3 = (u: { token: string }, meta: AssetMetadata, data = hello) =>
  uploadAsset(pub, u.token, data, meta, { version: 'v1' });

/** Downloads (without following the redirect) at a path as wire's downloadAsset' does, with an Asset-Token. */
const download = (u: { token: string }, path: string, token?: string, headers: Record<string, string> = {}) =>
  getAsset(pub, path, u.token, token === undefined ? headers : { 'asset-token': token, ...headers });

/** Follows a download all the way to the bytes (wire's downloadAsset with redirects followed). */
async function downloadBytes(u: { token: string }, key: string, domain = 'example.com') {
  const r = await download(u, `/v8/assets/${domain}/${key}`);
  if (r.status !== 302) return { status: r.status, bytes: Buffer.from(r.text), reply: r };
  const followed = await fetchRedirect(r);
  return { ...followed, reply: r };
}

/** The download path of an upload answer (its Location header), unversioned as wire's tests take it. */
const locationOf = (r: Reply) => {
  const loc = r.headers.get('location');
  expect(loc, 'no Location header').toBeTruthy();
  return loc!.startsWith('/') ? loc! : `/${loc}`;
};

/** `uploadSomeAsset`: a public text asset "Hello World!" on the current version. */
const uploadSome = (u: { token: string }) =>
  uploadAsset(pub, u.token, new TextEncoder().encode('Hello World!'), { public: true });

const retentions = [undefined, 'eternal', 'persistent', 'volatile', 'eternal-infrequent_access', 'expiring'];

async function roundtrip(meta: AssetMetadata, deleteVia: 'v1' | 'v8', downloadVia: 'location' | 'v2') {
  const [u1, u2] = await Promise.all([createUser(pub, internal), createUser(pub, internal)]);
  const r1 = await uploadV3(u1, meta);
  expect(r1.status, r1.text).toBe(201);
  const { key, token, expires } = r1.body;
  const date = Date.parse(r1.headers.get('date') ?? '');
  expect(Number.isNaN(date)).toBe(false);
  const ret = meta.retention;
  if (ret !== undefined && ret !== 'eternal' && ret !== 'persistent' && ret !== 'eternal-infrequent_access')
    expect(Date.parse(expires)).toBeGreaterThan(date);
  const path = downloadVia === 'location' ? locationOf(r1) : `/v2/assets/${r1.body.domain}/${key}`;
  const r2 = await download(u1, path, token);
  expect(r2.status, r2.text).toBe(302);
  expect(r2.text).toBe('');
  const r3 = await fetch(r2.headers.get('location')!);
  expect(r3.status).toBe(200);
  expect(r3.headers.get('content-type')).toBe('application/octet-stream');
  expect(r3.headers.get('x-amz-meta-token')).toBe(token);
  expect(r3.headers.get('x-amz-meta-user')).toBe(u1.id);
  expect(Buffer.from(await r3.arrayBuffer()).toString()).toBe('Hello World');
  const del = (u: TestUser) =>
    deleteVia === 'v1' ? as(u).del(`/v1/assets/v3/${key}`) : as(u).del(`/v8/assets/${r1.body.domain}/${key}`);
  expect((await del(u2)).status).toBe(403);
  expect((await del(u1)).status).toBe(200);
  const r4 = await download(u1, path, token);
  expect(r4.status).toBe(404);
  expect(Date.parse(r4.headers.get('date') ?? '')).toBeGreaterThanOrEqual(date);
}

describe('Cargohold', () => {
  it('Cargohold.API.testSimpleRoundtrip', async () => {
    for (const retention of retentions)
      await roundtrip(retention === undefined ? { public: false } : { public: false, retention }, 'v8', 'location');
  });

  it('Cargohold.API.V3.testSimpleRoundtrip', async () => {
    for (const retention of retentions)
      await roundtrip(retention === undefined ? { public: false } : { retention }, 'v1', 'v2');
  });

  it('Cargohold.API.testDownloadWithAcceptHeader', async () => {
    const u = await createUser(pub, internal);
    const r = await download(u, `/v2/assets/example.com/3-2-${randomUUID()}`, undefined, { accept: 'image/jpeg' });
    expect(r.status).toBe(404);
  });

  it('Cargohold.API.testSimpleTokens', async () => {
    const [u1, u2] = await Promise.all([createUser(pub, internal), createUser(pub, internal)]);
    const r1 = await uploadV3(u1, { public: false, retention: 'volatile' });
    expect(r1.status, r1.text).toBe(201);
    const loc = locationOf(r1);
    const { key, token } = r1.body;
    const withQuery = (t: string) => `${loc}${loc.includes('?') ? '&' : '?'}asset_token=${t}`;
    expect((await download(u2, loc)).status).toBe(404);
    expect((await download(u2, withQuery(''))).status).toBe(404);
    expect((await download(u2, loc, 'abc123')).status).toBe(404);
    expect((await download(u2, withQuery('acb123'))).status).toBe(404);
    expect(await postAssetToken(pub, u2.token, key)).toMatchObject({
      status: 403,
      body: { label: 'unauthorised' },
    });
    const renewed = await postAssetToken(pub, u1.token, key);
    expect(renewed.status, renewed.text).toBe(200);
    const fresh = renewed.body.token;
    expect(fresh).not.toBe(token);
    const r3 = await download(u1, loc, fresh);
    expect(r3.status).toBe(302);
    expect(r3.text).toBe('');
    const r4 = await fetch(r3.headers.get('location')!);
    expect(r4.status).toBe(200);
    expect(r4.headers.get('content-type')).toBe('application/octet-stream');
    expect(r4.headers.get('x-amz-meta-token')).toBe(fresh);
    expect(r4.headers.get('x-amz-meta-user')).toBe(u1.id);
    expect(Buffer.from(await r4.arrayBuffer()).toString()).toBe('Hello World');
    expect((await download(u1, loc)).status).toBe(302);
    expect((await download(u2, loc, fresh)).status).toBe(302);
    expect((await download(u2, withQuery(fresh))).status).toBe(302);
    expect(await deleteAssetToken(pub, u2.token, key)).toMatchObject({ status: 403, body: { label: 'unauthorised' } });
    const deleted = await deleteAssetToken(pub, u1.token, key);
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe('');
    const open = await download(u2, loc);
    expect(open.status).toBe(302);
    expect(open.text).toBe('');
  });

  it('Cargohold.API.testSimpleS3ClosedConnectionReuse (without the idle wait)', async () => {
    const u = await createUser(pub, internal);
    const data = new TextEncoder().encode('c'.repeat(100000));
    for (let i = 0; i < 2; i++)
      expect((await uploadV3(u, { public: false, retention: 'volatile' }, data)).status).toBe(201);
  });

  it('Cargohold.API.testUploadCompatibility', async () => {
    const u = await createUser(pub, internal);
    const body =
      '--FrontierIyj6RcVrqMcxNtMEWPsNpuPm325QsvWQ\r\n' +
      'Content-Type: application/json;charset=utf-8\r\n' +
      'Content-length: 37\r\n\r\n' +
      '{"public":true,"retention":"eternal"}\r\n' +
      '--FrontierIyj6RcVrqMcxNtMEWPsNpuPm325QsvWQ\r\n' +
      'Content-Type: application/octet-stream\r\n' +
      'Content-length: 4\r\n' +
      'Content-MD5: CY9rzUYh03PK3k6DJie09g==\r\n\r\n' +
      'test\r\n' +
      '--FrontierIyj6RcVrqMcxNtMEWPsNpuPm325QsvWQ--\r\n\r\n';
    const r1 = await call(pub, '/v1/assets/v3', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${u.token}`,
        'content-type': 'multipart/mixed; boundary=FrontierIyj6RcVrqMcxNtMEWPsNpuPm325QsvWQ',
      },
      body,
    });
    expect(r1.status, r1.text).toBe(201);
    const r2 = await download(u, locationOf(r1));
    expect(r2.status).toBe(302);
    expect(r2.text).toBe('');
    const r3 = await fetch(r2.headers.get('location')!);
    expect(r3.status).toBe(200);
    expect(r3.headers.get('content-type')).toBe('application/octet-stream');
    expect(r3.headers.get('x-amz-meta-user')).toBe(u.id);
    expect(Buffer.from(await r3.arrayBuffer()).toString()).toBe('test');
  });

  // Configuration difference: wire-server's test backends allow all domains (an unknown one fails discovery,
  // 422); the shipped config/ federates with a list, so an unlisted domain is 400 federation-denied.
  it.skip('Cargohold.API.testRemoteDownloadWrongDomain', async () => {
    const u = await createUser(pub, internal);
    const r = await download(u, `/v2/assets/invalid.example.com/3-2-${randomUUID()}`);
    expect(r.status, r.text).toBe(422);
  });

  it('Cargohold.API.V3.testUploadWrongContentLength', async () => {
    const u = await createUser(pub, internal);
    const payload = crypto.getRandomValues(new Uint8Array(2048));
    const meta = { public: false, retention: 'volatile' };
    const raw = (declaredLength: number) => {
      const { body, contentType } = assetBody(payload, meta, { declaredLength });
      return call(pub, '/v1/assets/v3', {
        method: 'POST',
        headers: { authorization: `Bearer ${u.token}`, 'content-type': contentType },
        body,
      });
    };
    expect(await raw(2048 + 1024)).toMatchObject({ status: 400, body: { label: 'incomplete-body' } });
    const ok = await raw(2048);
    expect(ok.status, ok.text).toBe(201);
    const got = await downloadBytes(u, ok.body.key);
    expect(got.status).toBe(200);
    expect(got.bytes.length).toBe(2048);
    expect(got.bytes.equals(Buffer.from(payload))).toBe(true);
  });

  it('Cargohold.AssetDownload.testDownloadAsset', async () => {
    const u = await createUser(pub, internal);
    const r = await uploadSome(u);
    expect(r.status, r.text).toBe(201);
    const got = await downloadBytes(u, r.body.key);
    expect(got.status).toBe(200);
    expect(got.bytes.toString()).toBe('Hello World!');
  });

  it('Cargohold.AssetDownload.testDownloadAssetMultiIngressS3DownloadUrl (multi-ingress off)', async () => {
    const u = await createUser(pub, internal);
    const r = await uploadSome(u);
    expect(r.status, r.text).toBe(201);
    for (const host of ['nginz-https.example.com', 'red.example.com', 'green.example.com', 'unknown.example.com'])
      expect((await getAssetAtHost(pub, `/v8/assets/example.com/${r.body.key}`, u.token, host)).status).toBe(302);
  });

  it('Cargohold.AssetUpload.testAssetUploadVerifiedUser', async () => {
    const u = await createUser(pub, internal);
    expect((await uploadSome(u)).status).toBe(201);
  });

  it('Cargohold.AssetUpload.testAssetUploadUnknownUser (the token of a deleted user)', async () => {
    const u = await createUser(pub, internal);
    expect((await deleteSelf(pub, u.token, { password: u.password })).status).toBe(200);
    expect((await uploadSome(u)).status).toBe(403);
  });

  it('Cargohold.AssetUpload.testUploadAssetEphemeralUser', async () => {
    const guest = await guestUser();
    const r = await uploadSome(guest);
    expect(r.status, r.text).toBe(201);
    const got = await downloadBytes(guest, r.body.key);
    expect(got.status).toBe(200);
    expect(got.bytes.toString()).toBe('Hello World!');
  });

  it('Cargohold.Metrics.testPrometheusMetrics', async () => {
    const r = await call(internal, '/i/metrics');
    expect(r.status).toBe(200);
    expect(r.text).toContain('TYPE http_request_duration_seconds histogram');
  });
});
