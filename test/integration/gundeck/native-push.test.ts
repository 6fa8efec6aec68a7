import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { addClient } from '../../helpers/clients.js';
import { startFakeSns, type FakeSns } from '../../helpers/fake-sns.js';
import { groupWithClients } from '../../helpers/group.js';
import { otrMessage, postOtr } from '../../helpers/otr.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { call, wireError, type Reply } from '../../helpers/http.js';
import { deleteClient } from '../../helpers/endpoints/brig.js';
import { deletePushToken, getLastNotification, getPushTokens, postPushToken } from '../../helpers/endpoints/gundeck.js';

// Native push through SNS (gundeck's `aws`): devices register their tokens, and a notification that
// reaches a device by no websocket wakes it with a push through the gateway. The gateway is SNS's
// API on loopback, which checks each request's signature and records what is published.

let sns: FakeSns;
let b: TestBackend;

beforeAll(async () => {
  sns = await startFakeSns();
  b = await startEditedBackend(
    [['gundeck.yaml', ['aws'], { account: sns.account, region: sns.region, arnEnv: 'test', snsEndpoint: sns.url }]],
    {
      secrets: {
        SNS_ACCESS_KEY_ID: sns.credentials.accessKeyId,
        SNS_SECRET_ACCESS_KEY: sns.credentials.secretAccessKey,
      },
    },
  );
});

afterAll(async () => {
  await b?.stop();
  await sns?.stop();
});

const gcm = (client: string, token: string, app = 'wire') => ({ transport: 'GCM', app, token, client });
/** A log line's JSON object, if it is one. */
function jsonLine(line: string): Array<Record<string, unknown>> {
  try {
    return [JSON.parse(line.slice(line.indexOf('{')))];
  } catch {
    return [];
  }
}

const refused = (r: Reply, status: number, label: string) =>
  expect(r).toMatchObject({ status, body: wireError(status, label) });
const endpointOf = (token: string) => [...sns.endpoints].find(([, e]) => e.token === token);

async function withClient(): Promise<{ u: TestUser; client: string }> {
  const u = await createUser(b.publicUrl, b.internalUrl);
  return { u, client: await addClient(b.publicUrl, u) };
}

describe('POST|GET|DELETE /push/tokens', () => {
  it('registers a device at the gateway, lists it, and replaces it for the same client, transport and app', async () => {
    const { u, client } = await withClient();
    const first = await postPushToken(b.publicUrl, u.token, gcm(client, 'device-1'));
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('location')).toBe('device-1');
    expect(first.body).toEqual(gcm(client, 'device-1'));
    const [arn, endpoint] = endpointOf('device-1')!;
    expect(arn).toMatch(/^arn:aws:sns:eu-west-1:123456789012:endpoint\/GCM\/test-wire\//);
    expect(endpoint).toMatchObject({ app: 'arn:aws:sns:eu-west-1:123456789012:app/GCM/test-wire', users: [u.id] });

    expect((await postPushToken(b.publicUrl, u.token, gcm(client, 'device-2'))).status).toBe(201);
    expect((await postPushToken(b.publicUrl, u.token, gcm(client, 'device-3', 'wire-beta'))).status).toBe(201);
    const listed = await getPushTokens(b.publicUrl, u.token);
    expect(listed.status).toBe(200);
    expect(listed.body.tokens).toEqual(
      expect.arrayContaining([gcm(client, 'device-2'), gcm(client, 'device-3', 'wire-beta')]),
    );
    expect(listed.body.tokens).toHaveLength(2);
    expect(endpointOf('device-1')).toBeUndefined(); // the replaced token's endpoint is deleted

    expect((await deletePushToken(b.publicUrl, u.token, 'device-3')).status).toBe(204);
    expect(endpointOf('device-3')).toBeUndefined();
    refused(await deletePushToken(b.publicUrl, u.token, 'device-3'), 404, 'not-found');
    expect((await getPushTokens(b.publicUrl, u.token)).body.tokens).toEqual([gcm(client, 'device-2')]);
    const internal = await api(b.internalUrl).get(`/i/push-tokens/${u.id}`);
    expect(internal.body.tokens).toEqual([gcm(client, 'device-2')]);
    expect(sns.unsigned()).toBe(0);
  });

  it("refuses VoIP tokens, unknown apps, tokens the platform rejects and tokens over the platform's length", async () => {
    const { u, client } = await withClient();
    const voip = { transport: 'APNS_VOIP', app: 'wire', token: 'ab'.repeat(32), client };
    refused(await postPushToken(b.publicUrl, u.token, voip), 400, 'apns-voip-not-supported');
    refused(await postPushToken(b.publicUrl, u.token, gcm(client, 'device-x', 'x-unknown-app')), 404, 'app-not-found');
    const apns = { transport: 'APNS', app: 'wire', token: 'not-a-device-token', client };
    refused(await postPushToken(b.publicUrl, u.token, apns), 404, 'invalid-token');
    refused(await postPushToken(b.publicUrl, u.token, gcm(client, 'x'.repeat(8192))), 413, 'token-too-long');
    refused(await postPushToken(b.publicUrl, u.token, { ...gcm(client, 'y'), transport: 'WNS' }), 400, 'bad-request');
    expect((await getPushTokens(b.publicUrl, u.token)).body.tokens).toEqual([]);
  });

  it('logs a gateway that fails to let go of an endpoint under the request id, and unregisters anyway', async () => {
    const { u, client } = await withClient();
    const me = api(b.publicUrl, u.token);
    expect((await postPushToken(b.publicUrl, u.token, gcm(client, `stuck-${client}`))).status).toBe(201);
    sns.failing.add('GetEndpointAttributes');
    try {
      const r = await me.del(`/v8/push/tokens/stuck-${client}`);
      expect(r.status).toBe(204);
      const requestId = r.headers.get('request-id')!;
      const line = b.logs.flatMap(jsonLine).find((l) => l.request_id === requestId);
      expect(line).toMatchObject({ level: 'warn', msg: 'push endpoint not released' });
    } finally {
      sns.failing.delete('GetEndpointAttributes');
    }
    expect((await getPushTokens(b.publicUrl, u.token)).body.tokens).toEqual([]);
  });

  it('shares one endpoint among the accounts of a device, and deletes it with its last user', async () => {
    const a = await withClient();
    const c = await withClient();
    const token = `shared-${a.u.id}`;
    expect((await postPushToken(b.publicUrl, a.u.token, gcm(a.client, token))).status).toBe(201);
    expect((await postPushToken(b.publicUrl, c.u.token, gcm(c.client, token))).status).toBe(201);
    expect(endpointOf(token)![1].users).toEqual([a.u.id, c.u.id]);
    expect((await deletePushToken(b.publicUrl, a.u.token, token)).status).toBe(204);
    expect(endpointOf(token)![1].users).toEqual([c.u.id]);
    expect((await deletePushToken(b.publicUrl, c.u.token, token)).status).toBe(204);
    expect(endpointOf(token)).toBeUndefined();
  });

  it("removes a deleted client's tokens", async () => {
    const { u, client } = await withClient();
    expect((await postPushToken(b.publicUrl, u.token, gcm(client, `gone-${client}`))).status).toBe(201);
    expect((await deleteClient(b.publicUrl, u.token, client, { password: u.password })).status).toBe(200);
    expect((await getPushTokens(b.publicUrl, u.token)).body.tokens).toEqual([]);
    expect(endpointOf(`gone-${client}`)).toBeUndefined();
  });
});

describe('native push delivery', () => {
  it('wakes a device that no websocket reached, with only the notification id', async () => {
    const sender = await createUser(b.publicUrl, b.internalUrl);
    const r = await createUser(b.publicUrl, b.internalUrl);
    const { conv, from, clients } = await groupWithClients(b.publicUrl, sender, [r]);
    const rc = clients[0]!;
    const queued = await addClient(b.publicUrl, r, {
      password: r.password,
      capabilities: ['consumable-notifications'],
    });
    expect((await postPushToken(b.publicUrl, r.token, gcm(rc, `phone-${rc}`))).status).toBe(201);
    expect((await postPushToken(b.publicUrl, r.token, gcm(queued, `queued-${queued}`))).status).toBe(201);
    const [arn] = endpointOf(`phone-${rc}`)!;
    const [queuedArn] = endpointOf(`queued-${queued}`)!;
    const send = (text: string, extra: Record<string, unknown> = {}) =>
      postOtr(
        b.publicUrl,
        sender.token,
        conv,
        otrMessage(
          from,
          [
            { user: r.id, client: rc, text },
            { user: r.id, client: queued, text },
          ],
          { reportAll: {} },
          extra,
        ),
      );
    const lastId = async () => (await getLastNotification(b.publicUrl, r.token, { client: rc })).body.id;

    expect((await send('offline')).status).toBe(201);
    const pushed = await sns.nextPublish((p) => p.endpoint === arn);
    expect(pushed.message).toEqual({
      GCM: { data: { type: 'notice', data: { id: await lastId() }, user: r.id }, priority: 'high' },
    });

    // Online: the socket gets it, the device no push. Then no push asked for, and a transient one.
    const socket = await openSocket(b.publicUrl, `/v8/await?access_token=${r.token}&client=${rc}`);
    expect((await send('online')).status).toBe(201);
    const online = await socket.next((m) => m.payload?.[0]?.type === 'conversation.otr-message-add');
    await socket.close();
    expect((await send('silent', { nativePush: false })).status).toBe(201);
    expect((await send('typing', { transient: true })).status).toBe(201);
    expect((await send('offline again')).status).toBe(201);
    const again = await lastId();
    await sns.nextPublish((p) => p.endpoint === arn && p.message.GCM.data.data.id === again);
    const ids = sns.published.filter((p) => p.endpoint === arn).map((p) => p.message.GCM.data.data.id);
    expect(ids).toHaveLength(2);
    expect(ids).not.toContain(online.id);
    expect(sns.published.filter((p) => p.endpoint === queuedArn)).toEqual([]); // queue clients get none
    const metrics = async () => (await call(b.internalUrl, '/i/metrics')).text;
    expect(await metrics()).toMatch(/^push_native_success\{\} [1-9]/m);
    // The objects' counts arrive within a second. The shard's two pushes went through the local
    // run's two queues in turn (one queue takes about 5,000 messages/s; a deployment has more).
    await expect
      .poll(metrics, { timeout: 5000 })
      .toMatch(/^svc_native_pushes_queued_total\{queue="native_push"\} [1-9]/m);
    await expect
      .poll(metrics, { timeout: 5000 })
      .toMatch(/^svc_native_pushes_queued_total\{queue="native_push_1"\} [1-9]/m);
  });

  it('drops the token of a device the platform disabled, and tells its client', async () => {
    const sender = await createUser(b.publicUrl, b.internalUrl);
    const r = await createUser(b.publicUrl, b.internalUrl);
    const { conv, from, clients } = await groupWithClients(b.publicUrl, sender, [r]);
    const rc = clients[0]!;
    expect((await postPushToken(b.publicUrl, r.token, gcm(rc, `dead-${rc}`))).status).toBe(201);
    const [arn] = endpointOf(`dead-${rc}`)!;
    sns.disable(arn);
    // A socket without a client id sees every event of the user, and wakes no device.
    const socket = await openSocket(b.publicUrl, `/v8/await?access_token=${r.token}`);
    const message = otrMessage(from, [{ user: r.id, client: rc, text: 'hello' }]);
    expect((await postOtr(b.publicUrl, sender.token, conv, message)).status).toBe(201);
    const removed = await socket.next((m) => m.payload?.[0]?.type === 'user.push-remove');
    expect(removed.payload[0]).toEqual({ type: 'user.push-remove', token: gcm(rc, `dead-${rc}`) });
    await socket.close();
    expect((await getPushTokens(b.publicUrl, r.token)).body.tokens).toEqual([]);
    expect(sns.endpoints.has(arn)).toBe(false);
  });
});

describe('SNS configured without its credentials', () => {
  it('makes the worker refuse to serve, naming the setting', async () => {
    const aws = { account: sns.account, region: sns.region, arnEnv: 'test', snsEndpoint: sns.url };
    const unkeyed = await startEditedBackend([['gundeck.yaml', ['aws'], aws]]);
    try {
      const r = await call(unkeyed.internalUrl, '/i/status');
      expect(r).toMatchObject({ status: 500, body: wireError(500, 'invalid-configuration') });
      expect(r.body.message).toContain('gundeck.yaml aws');
    } finally {
      await unkeyed.stop();
    }
  });
});

describe('without a push gateway', () => {
  it('has no app to register a token for', async () => {
    const plain = sharedBackend();
    const u = await createUser(plain.publicUrl, plain.internalUrl);
    const client = await addClient(plain.publicUrl, u);
    refused(await postPushToken(plain.publicUrl, u.token, gcm(client, 'device')), 404, 'app-not-found');
  });
});
