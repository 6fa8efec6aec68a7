import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetBody, fetchRedirect, getAsset, getAssetAtHost, uploadAsset } from '../../helpers/assets.js';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { testBucket } from '../../helpers/object-store.js';
import { createUser, type TestUser } from '../../helpers/users.js';

const MIB = 1024 * 1024;

/** Sends part of a request whose Content-Length promises more, half-closes, and reads the answer. */
function interruptedUpload(
  base: string,
  token: string,
  body: Uint8Array,
  contentType: string,
  sent: number,
): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /v8/assets HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: ${contentType}\r\nContent-Length: ${body.byteLength}\r\nConnection: close\r\n\r\n`,
      );
      socket.end(body.subarray(0, sent));
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
    socket.on('error', reject);
  });
}

describe('asset storage: nothing half-written', () => {
  const bucket = testBucket('assets-failures');
  let backend: TestBackend;
  let user: TestUser;

  beforeAll(async () => {
    await bucket.create();
    backend = await startEditedBackend([['cargohold.yaml', ['objstore', 'bucket'], bucket.name]]);
    user = await createUser(backend.publicUrl, backend.internalUrl);
  });
  afterAll(() => backend?.stop());

  const nothingStored = async () => {
    expect(await backend.query('SELECT key FROM assets')).toEqual([]);
    expect(await bucket.keys()).toEqual([]);
    expect(await bucket.openUploads()).toEqual([]);
  };

  it('leaves no object, no open multipart upload and no metadata when the data part is short', async () => {
    for (const size of [1000, 20 * MIB]) {
      const { body, contentType } = assetBody(randomBytes(size / 2), undefined, { declaredLength: size });
      const r = await fetch(`${backend.publicUrl}/v8/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': contentType },
        body,
      });
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual(wireError(400, 'incomplete-body'));
    }
    await nothingStored();
  });

  it('leaves nothing when the data is not followed by the closing boundary', async () => {
    for (const size of [10, 12 * MIB]) {
      const { body, contentType } = assetBody(randomBytes(size), undefined, {
        trailer: 'trailing bytes that are no boundary',
      });
      const r = await fetch(`${backend.publicUrl}/v8/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.token}`, 'content-type': contentType },
        body,
      });
      expect(await r.json()).toEqual(wireError(400, 'client-error'));
    }
    await nothingStored();
  });

  it('answers 400 and leaves nothing when the client stops sending mid-body', async () => {
    const { body, contentType } = assetBody(randomBytes(20 * MIB));
    const answer = await interruptedUpload(backend.publicUrl, user.token, body, contentType, 12 * MIB);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"label":"incomplete-body"');
    await nothingStored();
  });

  it('stores the asset once the body is whole', async () => {
    const up = await uploadAsset(backend.publicUrl, user.token, randomBytes(12 * MIB));
    expect(up.status).toBe(201);
    expect(await bucket.keys()).toEqual([up.body.key]);
    expect(await bucket.openUploads()).toEqual([]);
  });
});

describe('asset storage: download URLs', () => {
  const bucket = testBucket();
  const port = new URL(bucket.endpoint).port;
  const red = `http://127.0.0.1:${port}`;
  const blue = `http://localhost:${port}`;

  it('signs URLs for the download endpoint, and the store refuses a tampered signature', async () => {
    const backend = await startEditedBackend([['cargohold.yaml', ['objstore', 'downloadEndpoint'], blue]]);
    try {
      const u = await createUser(backend.publicUrl, backend.internalUrl);
      const data = randomBytes(1000);
      const up = await uploadAsset(backend.publicUrl, u.token, data);
      const r = await getAsset(backend.publicUrl, `/v8/assets/example.com/${up.body.key}`, u.token);
      const url = new URL(r.headers.get('location')!);
      expect(url.origin).toBe(blue);
      expect(Number(url.searchParams.get('X-Amz-Expires'))).toBe(300);
      expect((await fetchRedirect(r)).bytes.equals(data)).toBe(true);

      const signature = url.searchParams.get('X-Amz-Signature')!;
      url.searchParams.set('X-Amz-Signature', (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1));
      const tampered = await fetch(url);
      expect(tampered.status).toBe(403);
      expect(await tampered.text()).toContain('SignatureDoesNotMatch');
      // Another host than the one signed for is refused too.
      expect((await fetch(r.headers.get('location')!.replace(blue, red))).status).toBe(403);
    } finally {
      await backend.stop();
    }
  });

  it('with multiIngress, signs for the endpoint of the request Z-Host; an unknown Z-Host finds nothing', async () => {
    const backend = await startEditedBackend([
      ['cargohold.yaml', ['objstore', 'downloadEndpoint'], 'http://ignored.example.com'],
      ['cargohold.yaml', ['objstore', 'multiIngress'], { 'red.example.com': red, 'blue.example.com': blue }],
    ]);
    try {
      const u = await createUser(backend.publicUrl, backend.internalUrl);
      const data = randomBytes(1000);
      const up = await uploadAsset(backend.publicUrl, u.token, data);
      const path = `/v8/assets/example.com/${up.body.key}`;
      for (const [host, endpoint] of [
        ['red.example.com', red],
        ['blue.example.com:443', blue],
      ] as const) {
        const r = await getAssetAtHost(backend.publicUrl, path, u.token, host);
        expect(r.status).toBe(302);
        expect(new URL(r.headers.get('location')!).origin).toBe(endpoint);
        expect((await fetchRedirect(r)).bytes.equals(data)).toBe(true);
      }
      expect(await getAssetAtHost(backend.publicUrl, path, u.token, 'green.example.com')).toMatchObject({
        status: 404,
        body: wireError(404, 'not-found'),
      });
    } finally {
      await backend.stop();
    }
  });
});

describe('asset storage: retention', () => {
  it('sweeps expired assets, object and metadata, and refuses them before the sweep', async () => {
    const backend = await startEditedBackend([]);
    const bucket = testBucket();
    try {
      const u = await createUser(backend.publicUrl, backend.internalUrl);
      const expiring = await uploadAsset(backend.publicUrl, u.token, randomBytes(10), { retention: 'volatile' });
      const kept = await uploadAsset(backend.publicUrl, u.token, randomBytes(10), { retention: 'expiring' });
      await backend.query('UPDATE assets SET expires_at = ? WHERE key = ?', Date.now() - 1000, expiring.body.key);
      expect((await getAsset(backend.publicUrl, `/v8/assets/example.com/${expiring.body.key}`, u.token)).status).toBe(
        404,
      );

      await backend.runScheduled();
      expect(await backend.query('SELECT key FROM assets')).toEqual([{ key: kept.body.key }]);
      expect(await bucket.exists(expiring.body.key)).toBe(false);
      expect(await bucket.exists(kept.body.key)).toBe(true);
      expect((await getAsset(backend.publicUrl, `/v8/assets/example.com/${kept.body.key}`, u.token)).status).toBe(302);
    } finally {
      await backend.stop();
    }
  });
});
