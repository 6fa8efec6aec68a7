import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importZauthKeys } from '../../../src/edge/auth/keys.js';
import { signCookie } from '../../../src/edge/auth/tokens.js';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { proteusKeys } from '../../helpers/prekeys.js';
import { api, createUser, type TestUser, uniqueEmail } from '../../helpers/users.js';
import {
  claimKeyPackages,
  countKeyPackages,
  getClientPrekeys,
  getConnection,
  getPropertyValues,
  getSelfConsent,
  listConnections,
  getUserClientPrekey,
  postAccess,
} from '../../helpers/endpoints/brig.js';
import { listConversationIds } from '../../helpers/endpoints/galley.js';

/**
 * Versions before the Account object kept prekeys, key packages, cookies and connections in D1
 * (`prekeys`, `mls_key_packages`, `cookies`, `connections`). A state they wrote moves into the
 * users' objects: a user's first call moves theirs, and a restart (as `npm start` after an
 * upgrade) moves everyone's.
 */

const D = 'example.com';
const SUITE = 1;

/** A user made without a cookie (`POST /i/users`), so that nothing of theirs is in an Account object yet. */
async function plainUser(b: TestBackend): Promise<{ id: string }> {
  const made = await api(b.internalUrl).post('/i/users', {
    name: 'Earlier',
    email: uniqueEmail(),
    password: 'secret-password',
  });
  expect(made.status, made.text).toBe(201);
  return { id: made.body.id };
}

/** A `zuid` cookie as the previous version's login left it: its record in D1, signed with the state's key. */
async function legacyCookie(b: TestBackend, user: { id: string }, id: number): Promise<string> {
  const keys = await importZauthKeys(readFileSync(join(b.stateDir, 'zauth-keys.json'), 'utf8'), 1);
  const expiresAt = Math.floor(Date.now() / 1000) + 86_400;
  await b.query(
    `INSERT INTO cookies (user, id, kind, label, created_at, expires_at, legalhold) VALUES (?, ?, 'persistent', 'old', ?, ?, 0)`,
    user.id,
    id,
    Date.now(),
    expiresAt,
  );
  return `zuid=${await signCookie(keys, { user: user.id, id, session: false }, expiresAt)}`;
}

/** A client as the previous version's `POST /clients` left it: its row, its prekeys and packages in D1. */
async function legacyClient(b: TestBackend, user: { id: string }, client: string) {
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

const d1Rows = async (b: TestBackend, user?: string) => {
  const tables = ['prekeys', 'mls_key_packages', 'cookies'];
  const counts = await Promise.all(
    tables.map((t) =>
      b.query<{ n: number }>(`SELECT count(*) AS n FROM ${t} WHERE ?1 IS NULL OR user = ?1`, user ?? null),
    ),
  );
  return counts.reduce((sum, [row]) => sum + row!.n, 0);
};

describe('prekeys, key packages and cookies of a previous version', () => {
  let before: TestBackend;
  let after: TestBackend | undefined;
  let asker: TestUser;
  let lazy: { id: string };
  let swept: { id: string };
  let lazyKeys: Awaited<ReturnType<typeof legacyClient>>;
  let sweptKeys: Awaited<ReturnType<typeof legacyClient>>;
  let lazyCookie: string;
  let sweptCookie: string;

  beforeAll(async () => {
    before = await startEditedBackend([]);
    asker = await createUser(before.publicUrl, before.internalUrl);
    [lazy, swept] = [await plainUser(before), await plainUser(before)];
    lazyKeys = await legacyClient(before, lazy, 'a1a1a1a1');
    sweptKeys = await legacyClient(before, swept, 'b2b2b2b2');
    lazyCookie = await legacyCookie(before, lazy, 41);
    sweptCookie = await legacyCookie(before, swept, 42);
  });
  afterAll(async () => {
    await (after ?? before).stop();
  });

  it("move on the user's first call: the old cookie signs in, a claim hands out the old keys, D1 keeps none", async () => {
    expect(await d1Rows(before, lazy.id)).toBe(4 + 2 + 1);
    const access = await postAccess(before.publicUrl, undefined, lazyCookie);
    expect(access.status, access.text).toBe(200);
    const token = access.body.access_token as string;
    expect(await d1Rows(before, lazy.id)).toBe(0);
    const first = await getUserClientPrekey(before.publicUrl, asker.token, { domain: D, id: lazy.id }, 'a1a1a1a1');
    expect(first.status, first.text).toBe(200);
    expect(first.body.prekey).toEqual(lazyKeys.keys.prekeys[0]);
    const ids = await getClientPrekeys(before.publicUrl, token, 'a1a1a1a1');
    expect(ids.body).toEqual([1, 2, 65535]);
    const count = await countKeyPackages(before.publicUrl, token, 'a1a1a1a1', { ciphersuite: '0x0001' });
    expect(count.body).toEqual({ count: 2 });
    // Untouched by the first backend: the other user's rows wait in D1.
    expect(await d1Rows(before, swept.id)).toBe(4 + 2 + 1);
  });

  it('move at the next start, so D1 is freed of users nobody asked for; cookies and claims find them in the objects', async () => {
    // An older version still running during a deployment writes after the user's rows moved.
    await before.query('INSERT INTO prekeys (user, client, id, key) VALUES (?, ?, 7, ?)', lazy.id, 'a1a1a1a1', 'late');
    await before.stop();
    after = await startEditedBackend([], { stateDir: before.stateDir });
    expect(await d1Rows(after)).toBe(0);
    expect((await postAccess(after.publicUrl, undefined, sweptCookie)).status).toBe(200);
    const lazyAccess = await postAccess(after.publicUrl, undefined, lazyCookie);
    expect(lazyAccess.status).toBe(200);
    const ids = await getClientPrekeys(after.publicUrl, lazyAccess.body.access_token, 'a1a1a1a1');
    expect(ids.body).toEqual([1, 2, 7, 65535]);

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

/** A side of a connection as versions before migration 0032 kept it, in D1. */
async function legacySide(b: TestBackend, from: string, to: { domain: string; id: string }, conv: string) {
  await b.query(
    `INSERT INTO connections (from_user, to_domain, to_user, status, conv_domain, conv_id, last_update)
     VALUES (?, ?, ?, 'accepted', ?, ?, ?)`,
    from,
    to.domain,
    to.id,
    D,
    conv,
    Date.now(),
  );
}

describe('connections, properties and consents of a previous version', () => {
  let before: TestBackend;
  let after: TestBackend | undefined;
  let lazy: { id: string };
  let swept: { id: string };
  let sweptCookie: string;
  const remote = { domain: 'remote.example', id: crypto.randomUUID() };
  const conv = crypto.randomUUID();

  beforeAll(async () => {
    before = await startEditedBackend([]);
    [lazy, swept] = [await plainUser(before), await plainUser(before)];
    // The state before migration 0032: no remote_connections, each side a row of connections.
    await before.query('DROP TABLE remote_connections');
    await before.query("DELETE FROM d1_migrations WHERE name LIKE '0032%'");
    await legacySide(before, lazy.id, { domain: D, id: swept.id }, conv);
    await legacySide(before, swept.id, { domain: D, id: lazy.id }, conv);
    await legacySide(before, swept.id, remote, crypto.randomUUID());
    await before.query(
      `INSERT INTO user_properties (user, key, value) VALUES (?, 'webapp', '{"theme":"dark"}')`,
      lazy.id,
    );
    await before.query(`INSERT INTO user_consents (user, type, value, source) VALUES (?, 2, 1, 'Webapp')`, swept.id);
    sweptCookie = await legacyCookie(before, swept, 52);
  });
  afterAll(async () => {
    await (after ?? before).stop();
  });

  const sides = async (b: TestBackend, user?: string) =>
    (
      await b.query<{ n: number }>(
        'SELECT count(*) AS n FROM connections WHERE ?1 IS NULL OR from_user = ?1',
        user ?? null,
      )
    )[0]!.n;

  const d1Properties = async (b: TestBackend) =>
    (
      await b.query<{ n: number }>(
        'SELECT (SELECT count(*) FROM user_properties) + (SELECT count(*) FROM user_consents) AS n',
      )
    )[0]!.n;

  it("move on the user's first call: their side and properties are where they were, D1 keeps them no more", async () => {
    const token = (await postAccess(before.publicUrl, undefined, await legacyCookie(before, lazy, 51))).body
      .access_token;
    const mine = await getConnection(before.publicUrl, token, { domain: D, id: swept.id });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toMatchObject({ status: 'accepted', qualified_conversation: { domain: D, id: conv } });
    expect(await sides(before, lazy.id)).toBe(0);
    expect(await sides(before, swept.id)).toBe(2);
    expect((await getPropertyValues(before.publicUrl, token)).body).toEqual({ webapp: { theme: 'dark' } });
    expect(await d1Properties(before)).toBe(1);
  });

  it('move at the next start, with the record of who is connected to other backends', async () => {
    await before.stop();
    after = await startEditedBackend([], { stateDir: before.stateDir });
    expect(await sides(after)).toBe(0);
    expect(await after.query('SELECT domain, user FROM remote_connections')).toEqual([
      { domain: remote.domain, user: swept.id },
    ]);
    const token = (await postAccess(after.publicUrl, undefined, sweptCookie)).body.access_token;
    const listed = await listConnections(after.publicUrl, token, {});
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.connections.map((c: any) => [c.qualified_to, c.status])).toEqual([
      [{ domain: D, id: lazy.id }, 'accepted'],
      [remote, 'accepted'],
    ]);
    expect(await d1Properties(after)).toBe(0);
    expect((await getSelfConsent(after.publicUrl, token)).body).toEqual({
      results: [{ type: 2, value: 1, source: 'Webapp' }],
    });
  });
});

describe("a user's conversations, as a previous version left them", () => {
  let b: TestBackend;
  let user: { id: string };
  const group = crypto.randomUUID();

  beforeAll(async () => {
    b = await startEditedBackend([]);
    // No Account object yet: the user's conversations are their rows of conversation_members.
    user = await plainUser(b);
    await b.query(
      `INSERT INTO conversations (domain, id, type, creator, name, created_at) VALUES (?, ?, 0, ?, 'earlier', ?)`,
      D,
      group,
      user.id,
      Date.now(),
    );
    await b.query(
      `INSERT INTO conversation_members (conv_domain, conv_id, user_domain, user_id, joined_at) VALUES (?, ?, ?, ?, ?)`,
      D,
      group,
      D,
      user.id,
      Date.now(),
    );
  });
  afterAll(async () => {
    await b.stop();
  });

  it('are listed from the Account object once it opens; a later leave takes one out', async () => {
    const token = (await postAccess(b.publicUrl, undefined, await legacyCookie(b, user, 53))).body.access_token;
    const listed = await listConversationIds(b.publicUrl, token, {});
    expect(listed.status, listed.text).toBe(200);
    const ids = listed.body.qualified_conversations.map((c: { id: string }) => c.id);
    // Beside them, the MLS self conversation the listing makes.
    expect(ids).toEqual(expect.arrayContaining([user.id, group]));

    const left = await api(b.publicUrl, token).del(`/conversations/${D}/${group}/members/${D}/${user.id}`);
    expect(left.status, left.text).toBe(200);
    const after = await listConversationIds(b.publicUrl, token, {});
    // The conversation moved into its object on its first call: D1 keeps nothing of it.
    expect(await b.query('SELECT id FROM conversations WHERE id = ?', group)).toEqual([]);
    expect(await b.query('SELECT user_id FROM conversation_members WHERE conv_id = ?', group)).toEqual([]);
    const remaining = after.body.qualified_conversations.map((c: { id: string }) => c.id);
    expect(remaining).toContain(user.id);
    expect(remaining).not.toContain(group);
    expect(remaining).toHaveLength(ids.length - 1);
  });
});
