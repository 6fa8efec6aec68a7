// Scenarios of wire-server's integration/test/Test/MLS/KeyPackage.hs, MLS/Keys.hs and MLS/Clients.hs.
import { describe, expect, it } from 'vitest';
import { createUser } from '../helpers/users.js';
import { as, internal, pub, team } from './lib/env.js';
import { claim, kpClient, suiteHex } from './lib/key-packages.js';
import { deleteKeyPackages, deleteSelf, uploadKeyPackages } from '../helpers/endpoints/brig.js';
import { getMLSPublicKeys } from '../helpers/endpoints/galley.js';

const newUser = () => createUser(pub, internal);
const P384 = 7;

describe('MLS key packages', () => {
  it('MLS.KeyPackage.testDeleteKeyPackages', async () => {
    const alice = await newUser();
    const a1 = await kpClient(alice);
    const refs = await a1.upload(3);
    const unknown = Buffer.from('4B701F521EBE82CEC4AD5CB67FDD8E1C43FC4868DE32D03933CE4993160B75E8', 'hex').toString(
      'base64',
    );
    const r = await deleteKeyPackages(
      pub,
      alice.token,
      a1.client,
      {
        key_packages: [unknown, ...refs],
      },
      { ciphersuite: '0x0002' },
    );
    expect(r.status, r.text).toBe(201);
    expect(await a1.count()).toBe(0);
  });

  it('MLS.KeyPackage.testClaimKeyPackagesUserDeleted', async () => {
    const { members } = await team(1);
    const alice = members[0]!;
    const a1 = await kpClient(alice);
    expect((await deleteSelf(pub, alice.token, { password: alice.password })).status).toBe(200);
    const bob = await newUser();
    const b1 = await kpClient(bob);
    void a1;
    expect(await claim(b1, alice)).toMatchObject({ status: 400, body: { label: 'invalid-user' } });
  });

  it('MLS.KeyPackage.testKeyPackageMultipleCiphersuites', async () => {
    const alice = await newUser();
    const a1 = await kpClient(alice, [2, P384]);
    const a2 = await kpClient(alice, [2, P384]);
    const [ref] = await a2.upload(1, 2);
    await a2.upload(1, P384);
    expect(await a2.count(2)).toBe(1);
    const claimed = await claim(a1, alice, 2);
    expect(claimed.status).toBe(200);
    expect(claimed.body.key_packages[0].key_package_ref).toBe(ref);
    expect(await a2.count(P384)).toBe(1);
  });

  it('MLS.KeyPackage.testKeyPackageUploadNoKey', async () => {
    const alice = await newUser();
    const a1 = await kpClient(alice, [1], { register: false });
    const { kps } = await a1.make(1);
    const r = await uploadKeyPackages(pub, alice.token, a1.client, { key_packages: kps });
    expect(r.status).toBe(400);
    expect(await a1.count()).toBe(0);
  });

  it('MLS.KeyPackage.testKeyPackageClaim', async () => {
    const alice = await newUser();
    const alices = [await kpClient(alice), await kpClient(alice)];
    for (const a of alices) await a.upload(3);
    const bob = await newUser();
    const bobs = [await kpClient(bob), await kpClient(bob), await kpClient(bob)];
    for (const b of bobs) {
      const r = await claim(b, alice);
      expect(r.status).toBe(200);
      for (const k of r.body.key_packages) expect(k.user).toBe(alice.id);
      expect(r.body.key_packages.map((k: any) => k.client).sort()).toEqual(alices.map((a) => a.client).sort());
    }
    expect(await alices[0]!.count()).toBe(0);
  });

  it('MLS.KeyPackage.testKeyPackageSelfClaim', async () => {
    const alice = await newUser();
    const [a1, a2] = [await kpClient(alice), await kpClient(alice)];
    for (const a of [a1, a2]) await a.upload(3);
    const own = await claim(a1, alice);
    expect(own.status).toBe(200);
    expect(own.body.key_packages.map((k: any) => k.client)).toEqual([a2.client]);
    expect([await a1.count(), await a2.count()]).toEqual([3, 2]);
    const bob = await newUser();
    for (const b of [await kpClient(bob), await kpClient(bob)]) {
      const r = await claim(b, alice, 2, `&skip_own=${a1.client}`);
      expect(r.status).toBe(200);
      expect(r.body.key_packages).toHaveLength(2);
    }
    expect([await a1.count(), await a2.count()]).toEqual([1, 0]);
  });

  for (const suite of [1, 2]) {
    it(`MLS.KeyPackage.testKeyPackageCount[suite=${suiteHex(suite)}]`, async () => {
      const alice = await newUser();
      const a1 = await kpClient(alice, [suite]);
      expect(await a1.count(suite)).toBe(0);
      await a1.upload(10, suite);
      expect(await a1.count(suite)).toBe(10);
    });
  }

  // ts-mls needs @hpke/chacha20poly1305 (not installed) for suite 0x0003 key packages.
  it.skip('MLS.KeyPackage.testUnsupportedCiphersuite', async () => {
    const bob = await newUser();
    const b1 = await kpClient(bob, [3]);
    const { kps } = await b1.make(1, 3);
    const r = await uploadKeyPackages(pub, bob.token, b1.client, { key_packages: kps });
    expect(r).toMatchObject({ status: 400, body: { label: 'mls-protocol-error' } });
  });

  it('MLS.KeyPackage.testReplaceKeyPackages', async () => {
    const alice = await newUser();
    const a1 = await kpClient(alice, [2, P384]);
    const a2 = await kpClient(alice, [2, P384]);
    const counts = async (n1: number, n7: number) =>
      expect([await a1.count(2), await a1.count(P384)]).toEqual([n1, n7]);
    const replace = (suites: number[], kps: string[]) =>
      as(alice).put(`/v8/mls/key-packages/self/${a1.client}?ciphersuites=${suites.map(suiteHex).join(',')}`, {
        key_packages: kps,
      });
    await a1.upload(4, 2);
    await a1.upload(5, P384);
    await counts(4, 5);

    const fresh = await a1.make(3, P384);
    expect((await replace([P384], fresh.kps)).status).toBe(201);
    await counts(4, 3);
    const claimedRefs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await claim(a2, alice, P384);
      expect(r.status).toBe(200);
      expect(r.body.key_packages).toHaveLength(1);
      claimedRefs.push(r.body.key_packages[0].key_package_ref);
    }
    expect(claimedRefs.sort()).toEqual([...fresh.refs].sort());
    await counts(4, 0);

    await a1.upload(5, P384);
    await counts(4, 5);
    const s1 = await a1.make(3, 2);
    const s7 = await a1.make(2, P384);
    expect((await replace([2, P384], [...s1.kps, ...s7.kps])).status).toBe(201);
    await counts(3, 2);

    const k1 = (await a1.make(3, 2)).kps;
    const k7 = (await a1.make(3, P384)).kps;
    expect((await replace([], [])).status).toBe(201);
    await counts(3, 2);
    for (const [suites, kps] of [
      [[], k1],
      [[], k7],
      [[P384], k1],
      [[P384], [...k7, ...k1]],
      [[P384], []],
      [[2], k7],
      [[2], [...k7, ...k1]],
      [[2], []],
    ] as Array<[number[], string[]]>) {
      expect(await replace(suites, kps), `${suites} ${kps.length}`).toMatchObject({
        status: 400,
        body: { label: 'mls-protocol-error' },
      });
      await counts(3, 2);
    }
  });

  it('MLS.KeyPackage.testReplaceKeyPackagesV7', async () => {
    const alice = await newUser();
    const a1 = await kpClient(alice, [2, P384, 1]);
    const a2 = await kpClient(alice, [2, P384, 1]);
    const counts = async (n2: number, n7: number, n1?: number) => {
      expect([await a1.count(2), await a1.count(P384)]).toEqual([n2, n7]);
      if (n1 !== undefined) expect(await a1.count(1)).toBe(n1);
    };
    const replace = (suites: number[] | undefined, kps: string[]) =>
      as(alice).put(
        `/v7/mls/key-packages/self/${a1.client}${suites === undefined ? '' : `?ciphersuites=${suites.map(suiteHex).join(',')}`}`,
        { key_packages: kps },
      );
    await a1.upload(4, 2);
    await a1.upload(5, P384);
    await a1.upload(6, 1);
    await counts(4, 5, 6);
    const fresh = await a1.make(3, P384);
    expect((await replace([P384], fresh.kps)).status).toBe(201);
    await counts(4, 3);
    const claimedRefs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await claim(a2, alice, P384);
      expect(r.body.key_packages).toHaveLength(1);
      claimedRefs.push(r.body.key_packages[0].key_package_ref);
    }
    expect(claimedRefs.sort()).toEqual([...fresh.refs].sort());
    await counts(4, 0);
    await a1.upload(5, P384);
    const s2 = await a1.make(3, 2);
    const s7 = await a1.make(2, P384);
    expect((await replace([2, P384], [...s2.kps, ...s7.kps])).status).toBe(201);
    await counts(3, 2);
    const k2 = (await a1.make(3, 2)).kps;
    const k7 = (await a1.make(3, P384)).kps;
    const k1 = (await a1.make(4, 1)).kps;
    expect((await replace([], [])).status).toBe(201);
    // Without the parameter, the suite is 0x0001.
    expect((await replace(undefined, k1)).status).toBe(201);
    await counts(3, 2, 4);
    for (const [suites, kps] of [
      [[], k2],
      [[], k7],
      [undefined, []],
      [undefined, k7],
      [undefined, [...k1, ...k7, ...k2]],
      [[P384], k2],
      [[P384], [...k1, ...k7, ...k2]],
      [[P384], []],
      [[2], k7],
      [[2], [...k1, ...k7, ...k2]],
      [[2], []],
    ] as Array<[number[] | undefined, string[]]>) {
      expect(await replace(suites, kps), `${suites} ${kps.length}`).toMatchObject({
        status: 400,
        body: { label: 'mls-protocol-error' },
      });
      await counts(3, 2, 4);
    }
  });

  it('MLS.Keys.testRawPublicKeys', async () => {
    const u = await newUser();
    const r = await getMLSPublicKeys(pub, u.token);
    expect(r.status).toBe(200);
    const len = (k: string) => Buffer.from(r.body.removal[k], 'base64').length;
    expect(len('ed25519')).toBe(32);
    expect(len('ecdsa_secp256r1_sha256')).toBe(65);
    expect(len('ecdsa_secp384r1_sha384')).toBe(97);
    expect(len('ecdsa_secp521r1_sha512')).toBe(133);
  });

  it('MLS.Keys.testJWKPublicKeys', async () => {
    const u = await newUser();
    const r = await getMLSPublicKeys(pub, u.token, { format: 'jwk' });
    expect(r.status).toBe(200);
    const len = (s: string) => Buffer.from(s, 'base64url').length;
    const ed = r.body.removal.ed25519;
    expect(ed).toMatchObject({ crv: 'Ed25519', kty: 'OKP' });
    expect(len(ed.x)).toBe(32);
    for (const [scheme, crv, n] of [
      ['ecdsa_secp256r1_sha256', 'P-256', 32],
      ['ecdsa_secp384r1_sha384', 'P-384', 48],
      ['ecdsa_secp521r1_sha512', 'P-521', 66],
    ] as const) {
      const k = r.body.removal[scheme];
      expect(k).toMatchObject({ crv, kty: 'EC' });
      expect(len(k.x)).toBe(n);
      expect(len(k.y)).toBe(n);
    }
  });
});
