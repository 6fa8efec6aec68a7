// Scenarios that need a backend configured otherwise than the shipped config/: one backend for the
// file with every change they need (each change concerns only its scenario's requests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadAsset } from '../helpers/assets.js';
import { startEditedBackend, type TestBackend } from '../helpers/backend.js';
import { DELETE } from '../helpers/config-files.js';
import { api, cookieOf, createUser, invitedMember, teamOwner } from '../helpers/users.js';
import { atHost } from './lib/host.js';
import { postRegister } from '../helpers/endpoints/brig.js';
import { getConversationCode, getJoinCodeConv, postConversation } from '../helpers/endpoints/galley.js';

let b: TestBackend;
beforeAll(async () => {
  b = await startEditedBackend([
    // Conversation.testGuestLinksExpired, testMultiIngressGuestLinks
    ['galley.yaml', ['settings', 'guestLinkTTLSeconds'], 1],
    ['galley.yaml', ['settings', 'conversationCodeURI'], DELETE],
    [
      'galley.yaml',
      ['settings', 'multiIngress'],
      { 'red.example.com': 'https://red.example.com', 'blue.example.com': 'https://blue.example.com' },
    ],
    // Cargohold.AssetUpload.testUploadAssetFileSizeLimit (team members only)
    ['cargohold.yaml', ['settings', 'maxTotalBytes'], 1],
    // Cargohold.AssetDownload.testDownloadAssetMultiIngressS3DownloadUrl
    [
      'cargohold.yaml',
      ['objstore', 'multiIngress'],
      {
        'red.example.com': 'http://s3-download.red.example.com',
        'green.example.com': 'http://s3-download.green.example.com',
      },
    ],
  ]);
}, 180_000);
afterAll(async () => {
  await b?.stop();
});

const guestLinkConv = async (token: string) => {
  const r = await postConversation(b.publicUrl, token, {
    qualified_users: [],
    access: ['code'],
    access_role: ['team_member', 'guest'],
  });
  expect(r.status, r.text).toBe(201);
  return r.body.qualified_id.id as string;
};

async function ephemeral(): Promise<{ token: string }> {
  const r = await postRegister(b.publicUrl, { name: 'Guest' });
  const access = await api(b.publicUrl).post('/access', undefined, { cookie: cookieOf(r) });
  return { token: access.body.access_token };
}

describe('configuration variants', () => {
  it('Conversation.testGuestLinksExpired', async () => {
    const owner = await teamOwner(b.publicUrl, b.internalUrl);
    const member = await invitedMember(b.publicUrl, owner);
    const conv = await guestLinkConv(owner.token);
    const created = await atHost(
      b.publicUrl,
      'POST',
      `/v8/conversations/${conv}/code`,
      owner.token,
      'red.example.com',
      {},
    );
    expect(created.status, created.text).toBe(201);
    const { key, code } = created.body.data;
    await new Promise((r) => setTimeout(r, 1100)); // the link's one second runs out
    expect((await getJoinCodeConv(b.publicUrl, member.token, { key, code })).status).toBe(404);
  });

  it('Conversation.testMultiIngressGuestLinks (multi-ingress part)', async () => {
    const owner = await teamOwner(b.publicUrl, b.internalUrl);
    const conv = await guestLinkConv(owner.token);
    const at = (method: string, host: string, body?: unknown) =>
      atHost(b.publicUrl, method, `/v8/conversations/${conv}/code`, owner.token, host, body);
    const created = await at('POST', 'red.example.com', {});
    expect(created.status, created.text).toBe(201);
    expect(created.body.type).toBe('conversation.code-update');
    expect(created.body.data.uri.startsWith('https://red.example.com')).toBe(true);
    expect((await at('GET', 'red.example.com')).body.uri.startsWith('https://red.example.com')).toBe(true);
    expect((await at('GET', 'blue.example.com')).body.uri.startsWith('https://blue.example.com')).toBe(true);
    const plain = await getConversationCode(b.publicUrl, owner.token, conv);
    expect(plain).toMatchObject({ status: 403, body: { label: 'access-denied' } });
    expect(await at('GET', 'unknown.example.com')).toMatchObject({ status: 403, body: { label: 'access-denied' } });
  });

  it('Cargohold.AssetUpload.testUploadAssetFileSizeLimit', async () => {
    const owner = await teamOwner(b.publicUrl, b.internalUrl);
    const member = await invitedMember(b.publicUrl, owner);
    const some = new TextEncoder().encode('Hello World!');
    expect(await uploadAsset(b.publicUrl, member.token, some, { public: true })).toMatchObject({
      status: 413,
      body: { label: 'client-error' },
    });
    const personal = await createUser(b.publicUrl, b.internalUrl);
    for (const u of [await ephemeral(), personal])
      expect((await uploadAsset(b.publicUrl, u.token, some, { public: true })).status).toBe(201);
  });

  it('Cargohold.AssetDownload.testDownloadAssetMultiIngressS3DownloadUrl (multi-ingress part)', async () => {
    const u = await createUser(b.publicUrl, b.internalUrl);
    const up = await uploadAsset(b.publicUrl, u.token, new TextEncoder().encode('Hello World!'), { public: true });
    expect(up.status, up.text).toBe(201);
    const get = (host: string) => atHost(b.publicUrl, 'GET', `/v8/assets/example.com/${up.body.key}`, u.token, host);
    expect(await get('nginz-https.example.com')).toMatchObject({ status: 404, body: { label: 'not-found' } });
    for (const color of ['red', 'green']) {
      const r = await get(`${color}.example.com`);
      expect(r.status).toBe(302);
      expect(new URL(r.headers.get('location')!).hostname).toBe(`s3-download.${color}.example.com`);
    }
    expect(await get('unknown.example.com')).toMatchObject({ status: 404, body: { label: 'not-found' } });
  });
});
