/** MLS clients as Test.MLS.KeyPackage drives them: key packages of several suites, refs, counts. */
import { expect } from 'vitest';
import { getCiphersuiteFromName, getCiphersuiteImpl, type CiphersuiteName, ciphersuites } from 'ts-mls';
import { decodeKeyPackage, makeKeyPackageRef } from 'ts-mls/keyPackage.js';
import { tokenOf } from '../../helpers/mls.js';
import { mlsKeys } from '../../helpers/mls-key-packages.js';
import { proteusKeys } from '../../helpers/prekeys.js';
import type { TestUser } from '../../helpers/users.js';
import { as, DOMAIN, pub } from './env.js';
import { countKeyPackages, postClient, uploadKeyPackages } from '../../helpers/endpoints/brig.js';

/** wire-server's integration suite runs MLS in 0x0002 (P-256) unless a scenario says otherwise. */
const DEFAULT_SUITE = 2;

const hex = (suite: number) => `0x${suite.toString(16).padStart(4, '0')}`;

async function refOf(kpB64: string, suite: number): Promise<string> {
  const name = (Object.keys(ciphersuites) as CiphersuiteName[]).find((n) => ciphersuites[n] === suite)!;
  const impl = await getCiphersuiteImpl(getCiphersuiteFromName(name));
  const decoded = decodeKeyPackage(new Uint8Array(Buffer.from(kpB64, 'base64')), 0);
  return Buffer.from(await makeKeyPackageRef(decoded![0], impl.hash)).toString('base64');
}

export interface KpClient {
  user: TestUser;
  client: string;
  /** An access token bound to the client. */
  token: string;
  /** `n` fresh key packages of a suite (base64), with their refs. */
  make(n: number, suite?: number): Promise<{ kps: string[]; refs: string[] }>;
  /** Uploads `n` fresh key packages (uploadNewKeyPackage); their refs. */
  upload(n?: number, suite?: number): Promise<string[]>;
  count(suite?: number): Promise<number>;
}

/** A client of `u` registered with one signature key per suite (createMLSClient with ciphersuites). */
export async function kpClient(
  u: TestUser,
  suites: number[] = [DEFAULT_SUITE],
  o: { register?: boolean } = {},
): Promise<KpClient> {
  const keys = await Promise.all(suites.map((suite) => mlsKeys({ user: u.id, domain: DOMAIN, suite })));
  const r = await postClient(pub, u.token, {
    type: 'permanent',
    ...(await proteusKeys(1)),
    password: u.password,
    ...(o.register === false ? {} : { mls_public_keys: Object.fromEntries(keys.map((k) => [k.scheme, k.publicKey])) }),
  });
  expect(r.status, r.text).toBe(201);
  const client = r.body.id as string;
  const token = await tokenOf(pub, u, client);
  const keysOf = (suite: number) => keys[suites.indexOf(suite)]!;
  const self: KpClient = {
    user: u,
    client,
    token,
    async make(n, suite = suites[0]!) {
      const kps = await keysOf(suite).keyPackages(client, n);
      return { kps, refs: await Promise.all(kps.map((k) => refOf(k, suite))) };
    },
    async upload(n = 1, suite = suites[0]!) {
      const { kps, refs } = await self.make(n, suite);
      const up = await uploadKeyPackages(pub, u.token, client, { key_packages: kps });
      expect(up.status, up.text).toBe(201);
      return refs;
    },
    async count(suite = DEFAULT_SUITE) {
      const c = await countKeyPackages(pub, u.token, client, { ciphersuite: hex(suite) });
      expect(c.status, c.text).toBe(200);
      return c.body.count;
    },
  };
  return self;
}

/** Claims key packages of `u` of a suite with a client's token (claimKeyPackages). */
export const claim = (by: { token: string }, u: { id: string }, suite = DEFAULT_SUITE, extra = '') =>
  as({ token: by.token } as TestUser).post(
    `/v8/mls/key-packages/claim/${DOMAIN}/${u.id}?ciphersuite=${hex(suite)}${extra}`,
  );

export { hex as suiteHex };
