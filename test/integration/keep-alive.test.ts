import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assetBody } from '../helpers/assets.js';
import { sharedBackend } from '../helpers/backend.js';
import { keepAliveClient } from '../helpers/keep-alive.js';
import { createUser, teamOwner, type TestUser } from '../helpers/users.js';
import { postSelfConversation } from '../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();

/** A JSON body of about `bytes` bytes. */
const jsonOf = (bytes: number) => JSON.stringify({ filler: 'x'.repeat(bytes) });
const json = { 'content-type': 'application/json' };

/**
 * Early refusals: each answers before (or without) reading the whole body. The edge must discard
 * the rest, so the next request on the same keep-alive connection is served.
 */
describe('a body the route did not read leaves the connection usable', () => {
  let me: TestUser;
  let client: ReturnType<typeof keepAliveClient>;
  const bearer = () => ({ authorization: `Bearer ${me.token}` });

  beforeAll(async () => {
    me = await createUser(publicUrl, internalUrl);
    expect((await postSelfConversation(publicUrl, me.token)).status).toBe(200);
  });
  afterEach(() => client?.close());

  const refusals: Array<{
    kind: string;
    send: () => ReturnType<ReturnType<typeof keepAliveClient>['send']>;
    status: number;
    label?: string;
  }> = [
    {
      kind: 'refused by authentication',
      send: () => client.send('POST', '/v8/conversations/self', jsonOf(100_000), json),
      status: 401,
      label: 'client-error',
    },
    {
      kind: 'POST /access without a cookie',
      send: () => client.send('POST', '/v8/access', jsonOf(100_000), json),
      status: 403,
      label: 'invalid-credentials',
    },
    {
      kind: 'POST /conversations/self, answered without reading',
      send: () => client.send('POST', '/v8/conversations/self', jsonOf(100_000), { ...json, ...bearer() }),
      status: 200,
    },
    {
      kind: 'refused by path validation',
      send: () =>
        client.send('PUT', '/v8/conversations/example.com/not-a-uuid/name', jsonOf(100_000), { ...json, ...bearer() }),
      status: 400,
      label: 'bad-request',
    },
    {
      kind: 'refused by the federation check',
      send: () =>
        client.send('POST', `/v8/connections/remote.example/${randomUUID()}`, jsonOf(60_000), { ...json, ...bearer() }),
      status: 400,
      label: 'federation-denied',
    },
    {
      kind: 'an unsupported version',
      send: () => client.send('POST', '/v99/conversations', jsonOf(100_000), json),
      status: 404,
      label: 'unsupported-version',
    },
    {
      kind: 'a declared length over the ingress limit',
      send: () => client.send('POST', '/v8/conversations', jsonOf(600_000), { ...json, ...bearer() }),
      status: 413,
      label: 'client-error',
    },
    {
      kind: 'an asset upload refused after its metadata',
      send: () => {
        // The data part declares 30 MiB, over a personal user's 25 MiB: refused before its bytes are read.
        const { body, contentType } = assetBody(randomBytes(200_000), undefined, { declaredLength: 30 * 1024 * 1024 });
        return client.send('POST', '/v8/assets', body, { 'content-type': contentType, ...bearer() });
      },
      status: 413,
      label: 'client-error',
    },
  ];

  it.each(refusals)('$kind', async ({ send, status, label }) => {
    client = keepAliveClient(publicUrl);
    const first = await send();
    expect(first.status).toBe(status);
    if (label !== undefined) expect(first.body.label).toBe(label);
    const second = await client.send('GET', '/v8/self', undefined, bearer());
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(me.id);
    expect(second.reusedSocket).toBe(true);
  });

  it('on the internal listener too', async () => {
    client = keepAliveClient(internalUrl);
    const first = await client.send('POST', '/i/no-such-route', jsonOf(100_000), json);
    expect(first.body.label).toBe('no-endpoint');
    const second = await client.send('GET', '/i/status');
    expect(second.status).toBe(200);
    expect(second.reusedSocket).toBe(true);
  });
});

/**
 * Requests the route reads to their end, through the public listener's entry socket (miniflare
 * patched to take absolute-form targets, see docs/architecture.md): the next request on the same
 * keep-alive connection is served.
 */
describe('a body read to its end leaves the connection usable', () => {
  let client: ReturnType<typeof keepAliveClient>;
  afterEach(() => client?.close());

  it('after a 100 MiB asset upload', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const bearer = { authorization: `Bearer ${owner.token}` };
    client = keepAliveClient(publicUrl);
    const { body, contentType } = assetBody(randomBytes(100 * 1024 * 1024));
    const up = await client.send('POST', '/v8/assets', body, { 'content-type': contentType, ...bearer });
    expect(up.status).toBe(201);
    const second = await client.send('GET', '/v8/self', undefined, bearer);
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(owner.id);
    expect(second.reusedSocket).toBe(true);
  }, 180_000);

  it('after a request target in absolute form', async () => {
    client = keepAliveClient(publicUrl);
    const first = await client.send('POST', `${publicUrl}/v8/api-version`, jsonOf(100_000), json);
    expect(first.body.label).toBe('method-not-allowed');
    const second = await client.send('GET', `${publicUrl}/api-version`);
    expect(second.status).toBe(200);
    expect(second.reusedSocket).toBe(true);
    const third = await client.send('GET', '/api-version');
    expect(third.status).toBe(200);
    expect(third.reusedSocket).toBe(true);
  });
});
