import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { tokenOf } from '../../helpers/mls.js';
import { mlsKeys } from '../../helpers/mls-key-packages.js';
import { proteusKeys } from '../../helpers/prekeys.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import {
  claimKeyPackages,
  countKeyPackages,
  deleteClient,
  postClient,
  uploadKeyPackages,
} from '../../helpers/endpoints/brig.js';

const { publicUrl, internalUrl } = sharedBackend();
const DOMAIN = 'example.com';

/** A user's MLS-capable client: registered with its signature key, making key packages with it. */
async function mlsClient(u: TestUser, suite = 1) {
  const keys = await mlsKeys({ user: u.id, domain: DOMAIN, suite });
  const r = await postClient(publicUrl, u.token, {
    type: 'permanent',
    ...(await proteusKeys(1)),
    password: u.password,
    mls_public_keys: { [keys.scheme]: keys.publicKey },
  });
  expect(r.status, r.text).toBe(201);
  const client = r.body.id as string;
  return {
    client,
    keyPackages: (n: number, o?: { seconds?: number; identity?: string }) => keys.keyPackages(client, n, o),
  };
}

const count = async (u: TestUser, client: string, suite = '') =>
  (await api(publicUrl, u.token).get(`/v8/mls/key-packages/self/${client}/count${suite}`)).body.count;

describe('MLS key packages', () => {
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([createUser(publicUrl, internalUrl), createUser(publicUrl, internalUrl)]);
  });

  it('stores uploaded packages, counts them per suite, and hands out each one once', async () => {
    const a = await mlsClient(alice);
    const packages = await a.keyPackages(3);
    const up = await uploadKeyPackages(publicUrl, alice.token, a.client, {
      key_packages: packages,
    });
    expect(up.status, up.text).toBe(201);
    expect(await count(alice, a.client)).toBe(3);
    expect(await count(alice, a.client, '?ciphersuite=0x0002')).toBe(0);

    const claims = await Promise.all(
      Array.from({ length: 5 }, () =>
        claimKeyPackages(publicUrl, bob.token, { domain: DOMAIN, id: alice.id }, { ciphersuite: '0x0001' }),
      ),
    );
    const handed = claims.flatMap((r) => r.body.key_packages);
    expect(handed).toHaveLength(3);
    expect(new Set(handed.map((k: any) => k.key_package)).size).toBe(3);
    for (const k of handed) {
      expect(packages).toContain(k.key_package);
      expect(k).toMatchObject({ user: alice.id, domain: DOMAIN, client: a.client });
      expect(typeof k.key_package_ref).toBe('string');
    }
    expect(await count(alice, a.client)).toBe(0);
  });

  it('skips the caller’s own client when they claim their own packages', async () => {
    const own = await mlsClient(bob);
    const other = await mlsClient(bob);
    for (const c of [own, other])
      await uploadKeyPackages(publicUrl, bob.token, c.client, {
        key_packages: await c.keyPackages(1),
      });
    const r = await claimKeyPackages(publicUrl, await tokenOf(publicUrl, bob, own.client), {
      domain: DOMAIN,
      id: bob.id,
    });
    expect(r.status).toBe(200);
    expect(r.body.key_packages.map((k: any) => k.client)).toEqual([other.client]);
  });

  it('refuses packages that are not this client’s, and stores nothing of a refused upload', async () => {
    const a = await mlsClient(alice);
    const good = await a.keyPackages(1);
    const upload = (key_packages: string[]) => uploadKeyPackages(publicUrl, alice.token, a.client, { key_packages });
    const foreign = await mlsKeys({ user: alice.id, domain: DOMAIN }); // a key the client did not register
    const wrongIdentity = await a.keyPackages(1, { identity: `${bob.id}:${a.client}@${DOMAIN}` });
    const tooLong = await a.keyPackages(1, { seconds: 100 * 86400 });
    for (const bad of [wrongIdentity, await foreign.keyPackages(a.client, 1), tooLong])
      expect(await upload([...good, ...bad])).toMatchObject({
        status: 400,
        body: wireError(400, 'mls-protocol-error'),
      });
    expect(await upload(['not base64!'])).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
    expect(await upload([Buffer.from('garbage').toString('base64')])).toMatchObject({ status: 400 });
    expect(await count(alice, a.client)).toBe(0);
  });

  it('replaces the packages of the named suites, and deletes packages by ref', async () => {
    const a = await mlsClient(alice);
    const path = `/v8/mls/key-packages/self/${a.client}`;
    await uploadKeyPackages(publicUrl, alice.token, a.client, { key_packages: await a.keyPackages(2) });
    const replacement = await a.keyPackages(1);
    expect(
      (await api(publicUrl, alice.token).put(`${path}?ciphersuites=0x0001`, { key_packages: replacement })).status,
    ).toBe(201);
    expect(await count(alice, a.client)).toBe(1);
    expect(
      await api(publicUrl, alice.token).put(`${path}?ciphersuites=0x0001,0x0002`, { key_packages: replacement }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'mls-protocol-error'),
    });
    const [claimed] = (
      await claimKeyPackages(publicUrl, bob.token, { domain: DOMAIN, id: alice.id })
    ).body.key_packages.filter((k: any) => k.client === a.client);
    expect(claimed.key_package).toBe(replacement[0]);

    await uploadKeyPackages(publicUrl, alice.token, a.client, { key_packages: await a.keyPackages(2) });
    const refs = (await claimKeyPackages(publicUrl, bob.token, { domain: DOMAIN, id: alice.id })).body.key_packages
      .filter((k: any) => k.client === a.client)
      .map((k: any) => k.key_package_ref);
    expect(refs).toHaveLength(1);
    expect(await count(alice, a.client)).toBe(1);
    const del = await api(publicUrl, alice.token).del(`${path}?ciphersuite=0x0001`, { key_packages: refs });
    expect(del.status).toBe(201);
    expect(await count(alice, a.client)).toBe(1); // the claimed ref was already gone; the other stays
  });

  it('answers 400 mls-protocol-error for a suite it does not support', async () => {
    const a = await mlsClient(alice);
    expect(await countKeyPackages(publicUrl, alice.token, a.client, { ciphersuite: '0x0004' })).toMatchObject({
      status: 400,
      body: wireError(400, 'mls-protocol-error'),
    });
  });

  it('forgets a deleted client’s packages', async () => {
    const a = await mlsClient(alice);
    await uploadKeyPackages(publicUrl, alice.token, a.client, {
      key_packages: await a.keyPackages(2),
    });
    const del = await deleteClient(publicUrl, alice.token, a.client, { password: alice.password });
    expect(del.status).toBe(200);
    const claimed = (await claimKeyPackages(publicUrl, bob.token, { domain: DOMAIN, id: alice.id })).body.key_packages;
    expect(claimed.filter((k: any) => k.client === a.client)).toEqual([]);
  });

  it('hands out nothing of a suspended user (400 invalid-user), and their packages again once active', async () => {
    const carol = await createUser(publicUrl, internalUrl);
    const c = await mlsClient(carol);
    await uploadKeyPackages(publicUrl, carol.token, c.client, { key_packages: await c.keyPackages(2) });
    const claim = () => claimKeyPackages(publicUrl, bob.token, { domain: DOMAIN, id: carol.id });
    // The first claim makes the Account object keep the directory's yes; a suspension must undo it.
    expect((await claim()).body.key_packages).toHaveLength(1);
    const status = (s: string) => api(internalUrl).put(`/i/users/${carol.id}/status`, { status: s });
    expect((await status('suspended')).status).toBe(200);
    expect((await claim()).body).toMatchObject(wireError(400, 'invalid-user'));
    expect((await status('active')).status).toBe(200);
    const again = await claim();
    expect(again.status, again.text).toBe(200);
    expect(again.body.key_packages.map((k: any) => k.client)).toEqual([c.client]);
  });
});
