import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { proteusKeys } from '../../helpers/prekeys.js';
import { createUser, type TestUser } from '../../helpers/users.js';
import {
  claimKeyPackages,
  countKeyPackages,
  getClientPrekeys,
  getUserClientPrekey,
} from '../../helpers/endpoints/brig.js';

/**
 * Versions before the Account object kept prekeys and key packages in D1 (`prekeys`,
 * `mls_key_packages`). A state they wrote moves into the users' objects: a user's first call
 * moves theirs, and a restart (as `npm start` after an upgrade) moves everyone's.
 */

const D = 'example.com';
const SUITE = 1;

/** A client as the previous version's `POST /clients` left it: its row, its prekeys and packages in D1. */
async function legacyClient(b: TestBackend, user: TestUser, client: string) {
  const keys = await proteusKeys(3);
  await b.query(
    `INSERT INTO clients (user, id, type, capabilities, mls_public_keys, created_at) VALUES (?, ?, 'permanent', '[]', '{}', ?)`,
    user.id,
    client,
    Date.now(),
  );
  for (const k of [...keys.prekeys, keys.lastkey])
    await b.query('INSERT INTO prekeys (user, client, id, key) VALUES (?, ?, ?, ?)', user.id, client, k.id, k.key);
  const future = Math.floor(Date.now() / 1000) + 86_400;
  const packages = [`${client}-kp-1`, `${client}-kp-2`];
  for (const ref of packages)
    await b.query(
      'INSERT INTO mls_key_packages (ref, user, client, cipher_suite, data, not_after) VALUES (?, ?, ?, ?, ?, ?)',
      ref,
      user.id,
      client,
      SUITE,
      `data-of-${ref}`,
      future,
    );
  return { keys, packages };
}

const d1Rows = async (b: TestBackend, user: string) => {
  const [p] = await b.query<{ n: number }>('SELECT count(*) AS n FROM prekeys WHERE user = ?', user);
  const [k] = await b.query<{ n: number }>('SELECT count(*) AS n FROM mls_key_packages WHERE user = ?', user);
  return p!.n + k!.n;
};

describe('prekeys and key packages of a previous version', () => {
  let before: TestBackend;
  let after: TestBackend | undefined;
  let asker: TestUser;
  let lazy: TestUser;
  let swept: TestUser;
  let lazyKeys: Awaited<ReturnType<typeof legacyClient>>;
  let sweptKeys: Awaited<ReturnType<typeof legacyClient>>;

  beforeAll(async () => {
    before = await startEditedBackend([]);
    [asker, lazy, swept] = [
      await createUser(before.publicUrl, before.internalUrl),
      await createUser(before.publicUrl, before.internalUrl),
      await createUser(before.publicUrl, before.internalUrl),
    ];
    lazyKeys = await legacyClient(before, lazy, 'a1a1a1a1');
    sweptKeys = await legacyClient(before, swept, 'b2b2b2b2');
  });
  afterAll(async () => {
    await (after ?? before).stop();
  });

  it("move on the user's first call: a claim hands out the old keys, and D1 keeps none", async () => {
    expect(await d1Rows(before, lazy.id)).toBe(4 + 2);
    const first = await getUserClientPrekey(before.publicUrl, asker.token, { domain: D, id: lazy.id }, 'a1a1a1a1');
    expect(first.status, first.text).toBe(200);
    expect(first.body.prekey).toEqual(lazyKeys.keys.prekeys[0]);
    expect(await d1Rows(before, lazy.id)).toBe(0);
    const ids = await getClientPrekeys(before.publicUrl, lazy.token, 'a1a1a1a1');
    expect(ids.body).toEqual([1, 2, 65535]);
    const count = await countKeyPackages(before.publicUrl, lazy.token, 'a1a1a1a1', { ciphersuite: '0x0001' });
    expect(count.body).toEqual({ count: 2 });
    // Untouched by the first backend: the other user's rows wait in D1.
    expect(await d1Rows(before, swept.id)).toBe(4 + 2);
  });

  it('move at the next start, so D1 is freed of users nobody asked for; claims find them in the objects', async () => {
    await before.stop();
    after = await startEditedBackend([], { stateDir: before.stateDir });
    const [left] = await after.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM prekeys) + (SELECT count(*) FROM mls_key_packages) AS n',
    );
    expect(left!.n).toBe(0);
    expect(after.logs.some((l) => l.includes('prekeys and key packages moved from D1'))).toBe(true);

    const claimed = await claimKeyPackages(
      after.publicUrl,
      asker.token,
      { domain: D, id: swept.id },
      { ciphersuite: '0x0001' },
    );
    expect(claimed.status, claimed.text).toBe(200);
    const [pkg] = claimed.body.key_packages;
    expect(claimed.body.key_packages).toHaveLength(1);
    expect(sweptKeys.packages).toContain(pkg.key_package_ref);
    expect(pkg).toEqual({
      user: swept.id,
      domain: D,
      client: 'b2b2b2b2',
      key_package_ref: pkg.key_package_ref,
      key_package: `data-of-${pkg.key_package_ref}`,
    });
    const prekey = await getUserClientPrekey(after.publicUrl, asker.token, { domain: D, id: swept.id }, 'b2b2b2b2');
    expect(prekey.body.prekey).toEqual(sweptKeys.keys.prekeys[0]);
    // What the first backend's claim took stays taken.
    const again = await getUserClientPrekey(after.publicUrl, asker.token, { domain: D, id: lazy.id }, 'a1a1a1a1');
    expect(again.body.prekey).toEqual(lazyKeys.keys.prekeys[1]);
  });
});
