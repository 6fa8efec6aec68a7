import { expect } from 'vitest';
import { type CommitBundleBytes, bundleBody, newMlsClient, type TestMlsClient } from './core-crypto.js';
import { call, type Reply } from './http.js';
import { proteusKeys } from './prekeys.js';
import { login, type TestUser } from './users.js';
import * as brig from './endpoints/brig.js';
import { getNotifications } from './endpoints/gundeck.js';
import { postMLSCommitBundle } from './endpoints/galley.js';

const DOMAIN = 'example.com';

/** An access token of `u` bound to one of their clients (as a device's own token is). */
export async function tokenOf(base: string, u: TestUser, client: string): Promise<string> {
  const { cookie } = await login(base, u.email, u.password);
  const r = await brig.postAccess(base, undefined, cookie, { client_id: client });
  expect(r.status, r.text).toBe(200);
  return r.body.access_token;
}

/** Posts MLS bytes (`message/mls`) with a client's token. */
export const postMls = (base: string, token: string, path: string, body: Uint8Array): Promise<Reply> =>
  call(base, path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'message/mls' },
    body: body as BodyInit,
  });

/** A device of a user: its API client (registered with its MLS key), its token, its core-crypto client. */
export interface MlsDevice {
  user: TestUser;
  client: string;
  token: string;
  mls: TestMlsClient;
  /** The last bundle the backend refused, with its answer. */
  refused?: Reply;
  /** The last bundle it sent (answered or not). */
  sent?: CommitBundleBytes;
  /** The backend's answer to the last bundle it took (its `events`). */
  accepted?: Reply;
}

/**
 * Registers a client for `u`, starts core-crypto for it (its commits go to the backend's
 * `/mls/commit-bundles`, so a refused one is dropped by core-crypto too) and registers its
 * signature key.
 */
export async function mlsDevice(
  base: string,
  u: TestUser,
  suite = 1,
  domain = DOMAIN,
  /** Where its commits go, when the backend moves (a restart on other ports); default `base`. */
  commitsTo: () => string = () => base,
): Promise<MlsDevice> {
  const r = await brig.postClient(base, u.token, {
    type: 'permanent',
    ...(await proteusKeys(1)),
    password: u.password,
  });
  expect(r.status, r.text).toBe(201);
  const client = r.body.id as string;
  const token = await tokenOf(base, u, client);
  const device = { user: u, client, token } as MlsDevice;
  device.mls = await newMlsClient({
    user: u.id,
    client,
    domain,
    suite,
    deliver: async (bundle: CommitBundleBytes) => {
      device.sent = bundle;
      const answer = await postMLSCommitBundle(commitsTo(), token, bundleBody(bundle));
      if (answer.status !== 201) {
        device.refused = answer;
        throw new Error(`${answer.status} ${answer.text}`);
      }
      device.refused = undefined;
      device.accepted = answer;
    },
  });
  const scheme = { 1: 'ed25519', 2: 'ecdsa_secp256r1_sha256' }[suite] ?? 'ed25519';
  const key = Buffer.from(await device.mls.signatureKey()).toString('base64');
  const put = await brig.putClient(base, u.token, client, { mls_public_keys: { [scheme]: key } });
  expect(put.status, put.text).toBe(200);
  return device;
}

/** Uploads `n` key packages of a device. */
export async function uploadKeyPackages(base: string, d: MlsDevice, n: number): Promise<void> {
  const key_packages: string[] = [];
  for (let i = 0; i < n; i++) key_packages.push(Buffer.from((await d.mls.keyPackage()).bytes).toString('base64'));
  const r = await brig.uploadKeyPackages(base, d.token, d.client, { key_packages });
  expect(r.status, r.text).toBe(201);
}

/** Claims one key package of `suite` of each client of `u` (raw bytes), a user of `domain`. */
export async function claimKeyPackages(
  base: string,
  by: MlsDevice,
  u: TestUser,
  suite = 1,
  domain = DOMAIN,
): Promise<Uint8Array[]> {
  const r = await brig.claimKeyPackages(
    base,
    by.token,
    { domain, id: u.id },
    { ciphersuite: `0x${suite.toString(16)}` },
  );
  expect(r.status, r.text).toBe(200);
  return r.body.key_packages.map((k: { key_package: string }) => new Uint8Array(Buffer.from(k.key_package, 'base64')));
}

/** The MLS events in a device's notification stream, in order. */
export async function mlsEventsOf(
  base: string,
  d: MlsDevice,
): Promise<Array<{ type: string; conversation: string; data: string }>> {
  const r = await getNotifications(base, d.token, { client: d.client, size: 1000 });
  return r.body.notifications
    .flatMap((n: { payload: unknown[] }) => n.payload)
    .filter((e: { type: string }) => e.type.startsWith('conversation.mls-'));
}

export const bytesOf = (b64: string) => new Uint8Array(Buffer.from(b64, 'base64'));
