import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../helpers/backend.js';
import { call, postJson, wireError } from '../helpers/http.js';

const { publicUrl, internalUrl } = sharedBackend();

describe('error format', () => {
  it('unknown routes are 404 no-endpoint', async () => {
    const r = await call(publicUrl, '/v8/nothing-here');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    expect(r.body).toEqual(wireError(404, 'no-endpoint'));
  });

  it('bad JSON is 400 bad-request', async () => {
    const r = await call(internalUrl, '/i/federation/remotes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"domain":',
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 400, label: 'bad-request', message: 'Malformed JSON in request body' });
  });

  it('schema violations are 400 bad-request naming the field', async () => {
    const r = await postJson(internalUrl, '/i/federation/remotes', { domain: 'b.example.org', search_policy: 'all' });
    expect(r.status).toBe(400);
    expect(r.body.label).toBe('bad-request');
    expect(r.body.message).toMatch(/^search_policy: /);
  });
});

describe('unexpected exceptions', () => {
  let broken: TestBackend;
  // Without migrations the D1 table is missing: a real failure deep inside a handler.
  beforeAll(async () => {
    broken = await startEditedBackend([], { migrate: false });
  });
  afterAll(async () => broken?.stop());

  it('are 500 internal-server-error without exception text, logged with the request id', async () => {
    const r = await call(broken.internalUrl, '/i/federation/remotes');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ code: 500, label: 'internal-server-error', message: 'Internal server error' });
    expect(r.text).not.toMatch(/federation_remotes|SQLITE|at /);
    const requestId = r.headers.get('request-id');
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);
    await expect
      .poll(() => broken.logs.find((l) => l.includes(requestId!)))
      .toMatch(/no such table: federation_remotes/);
  });
});

describe('invalid configuration', () => {
  let misconfigured: TestBackend;
  beforeAll(async () => {
    misconfigured = await startEditedBackend([['galley.yaml', ['settings', 'guestLinkTTLSeconds'], 0]]);
  });
  afterAll(async () => misconfigured?.stop());

  it('makes the worker refuse to serve, naming the problem', async () => {
    for (const [base, path] of [
      [misconfigured.publicUrl, '/api-version'],
      [misconfigured.internalUrl, '/i/status'],
    ] as const) {
      const r = await call(base, path);
      expect(r.status).toBe(500);
      expect(r.body).toEqual({
        code: 500,
        label: 'invalid-configuration',
        message: 'Invalid configuration: galley.yaml settings.guestLinkTTLSeconds',
      });
    }
    await expect
      .poll(() => misconfigured.logs.find((l) => l.includes('invalid configuration')))
      .toMatch(/galley.yaml: settings.guestLinkTTLSeconds: must be greater than 0/);
  });
});
