import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../helpers/backend.js';
import { call, wireError } from '../helpers/http.js';
import { disabledEverywhere } from '../helpers/versions.js';

const { publicUrl } = sharedBackend();

describe('default configuration: [development]', () => {
  it('lists v0..v8 as supported and no development version', async () => {
    const r = await call(publicUrl, '/api-version');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      supported: [0, 1, 2, 3, 4, 5, 6, 7, 8],
      development: [],
      federation: true, // the shipped configuration federates with config/b.example.com/
      domain: 'example.com',
    });
  });

  it('answers a disabled version exactly like a non-existent one', async () => {
    const disabled = await call(publicUrl, '/v9/api-version');
    const unknown = await call(publicUrl, '/v10/api-version');
    expect(disabled.status).toBe(404);
    expect(disabled.body).toEqual({ code: 404, label: 'unsupported-version', message: 'Version v9 is not supported' });
    expect(unknown.body).toEqual({ code: 404, label: 'unsupported-version', message: 'Version v10 is not supported' });
  });

  it('checks the version before the method', async () => {
    expect((await call(publicUrl, '/v9/api-version', { method: 'DELETE' })).body).toEqual(
      wireError(404, 'unsupported-version'),
    );
    expect((await call(publicUrl, '/v8/api-version', { method: 'DELETE' })).body).toEqual(
      wireError(405, 'method-not-allowed'),
    );
  });

  it('treats an unversioned request as v0', async () => {
    // /system/settings/unauthorized exists from v3 on, so v0 does not have it
    expect((await call(publicUrl, '/system/settings/unauthorized')).body).toEqual(wireError(404, 'no-endpoint'));
    expect((await call(publicUrl, '/v0/system/settings/unauthorized')).body).toEqual(wireError(404, 'no-endpoint'));
  });

  it('matches a route only inside its version range', async () => {
    expect((await call(publicUrl, '/v2/system/settings/unauthorized')).status).toBe(404);
    const v3 = await call(publicUrl, '/v3/system/settings/unauthorized');
    expect(v3.status).toBe(200);
    expect(v3.body).toEqual({ setRestrictUserCreation: false });
  });

  it('refuses a version word without digits and versioned internal paths', async () => {
    expect((await call(publicUrl, '/v/api-version')).body).toEqual(wireError(404, 'unsupported-version'));
    const internal = await call(publicUrl, '/v5/i/status');
    expect(internal.body).toEqual({
      code: 404,
      label: 'unsupported-version',
      message: 'Internal APIs (`/i/...`) are not under version control',
    });
  });
});

describe('disabledAPIVersions variants', () => {
  let all: TestBackend;
  let some: TestBackend;
  beforeAll(async () => {
    [all, some] = await Promise.all([
      startEditedBackend(disabledEverywhere([])),
      startEditedBackend(disabledEverywhere(['v2', 'development'])),
    ]);
  });
  afterAll(async () => {
    await Promise.all([all?.stop(), some?.stop()]);
  });

  it('[] enables every version, development included', async () => {
    expect((await call(all.publicUrl, '/api-version')).body).toMatchObject({
      supported: [0, 1, 2, 3, 4, 5, 6, 7, 8],
      development: [9],
    });
    expect((await call(all.publicUrl, '/v9/api-version')).status).toBe(200);
  });

  it('explicit versions disappear from both lists and stop answering', async () => {
    expect((await call(some.publicUrl, '/api-version')).body).toMatchObject({
      supported: [0, 1, 3, 4, 5, 6, 7, 8],
      development: [],
    });
    expect((await call(some.publicUrl, '/v2/api-version')).body).toEqual(wireError(404, 'unsupported-version'));
    expect((await call(some.publicUrl, '/v3/api-version')).status).toBe(200);
  });

  it('still serves the documentation of a disabled version', async () => {
    const doc = await call(some.publicUrl, '/v2/api/swagger.json');
    expect(doc.status).toBe(200);
    expect(doc.body.info.version).toBe('v2');
  });
});
