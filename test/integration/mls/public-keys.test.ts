import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import type { Edit } from '../../helpers/config-files.js';
import { wireError } from '../../helpers/http.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import {
  claimKeyPackages,
  countKeyPackages,
  deleteKeyPackages,
  replaceKeyPackages,
  uploadKeyPackages,
} from '../../helpers/endpoints/brig.js';
import {
  getGroupInfo,
  getMLSPublicKeys,
  getOne2OneConversation,
  getSelfConversation,
  postConversation,
} from '../../helpers/endpoints/galley.js';

const SCHEMES = {
  ed25519: 'removal-ed25519.pem',
  ecdsa_secp256r1_sha256: 'removal-ecdsa-p256.pem',
  ecdsa_secp384r1_sha384: 'removal-ecdsa-p384.pem',
  ecdsa_secp521r1_sha512: 'removal-ecdsa-p521.pem',
} as const;

/** The public JWK of a PEM private key in the backend's state folder. */
function publicJwk(stateDir: string, file: string) {
  const pem = readFileSync(join(stateDir, 'mls', file), 'utf8');
  return createPublicKey(createPrivateKey(pem)).export({ format: 'jwk' });
}

const fromUrl = (s: string) => Buffer.from(s, 'base64url');

describe('GET /mls/public-keys', () => {
  let b: TestBackend;
  let user: TestUser;
  beforeAll(async () => {
    b = await startEditedBackend([]);
    user = await createUser(b.publicUrl, b.internalUrl);
  });
  afterAll(() => b?.stop());

  it('serves the removal keys npm start generated into the state folder, raw by default', async () => {
    const r = await getMLSPublicKeys(b.publicUrl, user.token);
    expect(r.status).toBe(200);
    const removal = r.body.removal as Record<string, string>;
    expect(Object.keys(removal).sort()).toEqual(Object.keys(SCHEMES).sort());
    for (const [scheme, file] of Object.entries(SCHEMES)) {
      const jwk = publicJwk(b.stateDir, file);
      const raw = jwk.kty === 'OKP' ? fromUrl(jwk.x!) : Buffer.concat([Buffer.of(4), fromUrl(jwk.x!), fromUrl(jwk.y!)]); // uncompressed point
      expect(Buffer.from(removal[scheme]!, 'base64').equals(raw), scheme).toBe(true);
    }
    expect(Buffer.from(removal.ed25519!, 'base64')).toHaveLength(32);
    expect(Buffer.from(removal.ecdsa_secp521r1_sha512!, 'base64')).toHaveLength(133);
  });

  it('serves public JWKs with format=jwk from v7, and ignores format before', async () => {
    const jwk = await getMLSPublicKeys(b.publicUrl, user.token, { format: 'jwk' });
    expect(jwk.status).toBe(200);
    for (const [scheme, file] of Object.entries(SCHEMES))
      expect(jwk.body.removal[scheme], scheme).toEqual(publicJwk(b.stateDir, file));
    const v6 = await api(b.publicUrl, user.token).get('/v6/mls/public-keys?format=jwk');
    expect(typeof v6.body.removal.ed25519).toBe('string');
    expect((await api(b.publicUrl, user.token).get('/v4/mls/public-keys')).status).toBe(404);
  });

  it('refuses a format it does not know', async () => {
    const r = await getMLSPublicKeys(b.publicUrl, user.token, { format: 'pem' });
    expect(r.status).toBe(400);
  });
});

describe('MLS switched off (setEnableMLS: false)', () => {
  let b: TestBackend;
  afterAll(() => b?.stop());

  it('answers 400 mls-not-enabled on every MLS endpoint, before looking at the request', async () => {
    b = await startEditedBackend([['brig.yaml', ['optSettings', 'setEnableMLS'], false]]);
    const user = await createUser(b.publicUrl, b.internalUrl);
    const u = api(b.publicUrl, user.token);
    const notEnabled = { status: 400, body: wireError(400, 'mls-not-enabled') };
    expect(await getMLSPublicKeys(b.publicUrl, user.token)).toMatchObject(notEnabled);
    expect(await countKeyPackages(b.publicUrl, user.token, '1')).toMatchObject(notEnabled);
    expect(await uploadKeyPackages(b.publicUrl, user.token, '1', { key_packages: ['AAAA'] })).toMatchObject(notEnabled);
    expect(await replaceKeyPackages(b.publicUrl, user.token, '1', { key_packages: [] })).toMatchObject(notEnabled);
    expect(await deleteKeyPackages(b.publicUrl, user.token, '1', { key_packages: ['AAAA'] })).toMatchObject(notEnabled);
    expect(await claimKeyPackages(b.publicUrl, user.token, { domain: 'example.com', id: user.id })).toMatchObject(
      notEnabled,
    );
    // galley: conversations, before any other check
    expect(await postConversation(b.publicUrl, user.token, { protocol: 'mls' })).toMatchObject(notEnabled);
    expect(await getSelfConversation(b.publicUrl, user.token)).toMatchObject(notEnabled);
    expect(
      await getOne2OneConversation(b.publicUrl, user.token, { domain: 'example.com', id: crypto.randomUUID() }),
    ).toMatchObject(notEnabled);
    expect(await u.get(`/v6/conversations/one2one/example.com/${crypto.randomUUID()}`)).toMatchObject(notEnabled);
    expect(await u.get(`/v5/conversations/one2one/example.com/${crypto.randomUUID()}`)).toMatchObject(notEnabled);
    expect(
      await getGroupInfo(b.publicUrl, user.token, { domain: 'example.com', id: crypto.randomUUID() }),
    ).toMatchObject(notEnabled);
    expect((await postConversation(b.publicUrl, user.token, { protocol: 'proteus' })).status).toBe(201);
  });
});

describe('removal keys the backend refuses to start with', () => {
  const path = (name: string) => join(process.env.TMPDIR ?? '/tmp', `removal-${process.pid}-${name}.pem`);
  const keyPath = (scheme: string, value: string): Edit => [
    'galley.yaml',
    ['settings', 'mlsPrivateKeyPaths', 'removal', scheme],
    value,
  ];

  it('refuses a missing key at an absolute path', async () => {
    await expect(startEditedBackend([keyPath('ed25519', path('absent'))])).rejects.toThrow(/missing/);
  });

  it('refuses a key of another scheme', async () => {
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    writeFileSync(path('ed'), ed);
    await expect(startEditedBackend([keyPath('ecdsa_secp256r1_sha256', path('ed'))])).rejects.toThrow(
      /not ecdsa_secp256r1_sha256/,
    );
  });

  it('refuses a file that holds no private key', async () => {
    writeFileSync(path('junk'), 'not a key');
    await expect(startEditedBackend([keyPath('ed25519', path('junk'))])).rejects.toThrow(/not a PEM private key/);
  });
});
