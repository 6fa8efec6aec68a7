import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionOfSlot, slotOf } from '../../../src/shared/db/partitions.js';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { deleteSelf, postActivateSend, postRegister } from '../../helpers/endpoints/brig.js';
import { wireError } from '../../helpers/http.js';
import { activationCode, api, createUser, login, type TestUser, uniqueEmail } from '../../helpers/users.js';

/**
 * Emails and handles are unique through claims in `user_names` (migration 0035), each in its
 * name's partition: claimed before the user's row takes the name, released after it gives it up.
 */

const MINUTE = 60_000;

async function register(b: TestBackend, email: string) {
  expect((await postActivateSend(b.publicUrl, { email })).status).toBe(200);
  const email_code = await activationCode(b.internalUrl, email);
  return postRegister(b.publicUrl, { name: 'Named', email, password: 'secret-password', email_code });
}

const setHandle = (b: TestBackend, u: TestUser, handle: string) =>
  api(b.publicUrl, u.token).put('/self/handle', { handle });
const handleTaken = async (b: TestBackend, u: TestUser, handle: string) =>
  (await api(b.publicUrl, u.token).head(`/v8/handles/${handle}`)).status;

describe('names, unique through their claims', () => {
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([]);
  });
  afterAll(async () => b?.stop());

  it('a claim left by a registration that never wrote its account blocks the name for a minute, then not', async () => {
    const fresh = uniqueEmail('fresh');
    const lapsed = uniqueEmail('lapsed');
    const insert = 'INSERT INTO user_names (name, user, at) VALUES (?, ?, ?)';
    await b.query(insert, `e:${fresh}`, crypto.randomUUID(), Date.now());
    await b.query(insert, `e:${lapsed}`, crypto.randomUUID(), Date.now() - 2 * MINUTE);
    const blocked = await register(b, fresh);
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual(wireError(409, 'key-exists'));
    const taken = await register(b, lapsed);
    expect(taken.status, taken.text).toBe(201);
    expect(await b.query('SELECT user FROM user_names WHERE name = ?', `e:${lapsed}`)).toEqual([
      { user: taken.body.id },
    ]);
    await login(b.publicUrl, lapsed, 'secret-password');
  });

  it("a handle given up is another's at once; the one taken is nobody else's", async () => {
    const [alice, bob] = await Promise.all([
      createUser(b.publicUrl, b.internalUrl),
      createUser(b.publicUrl, b.internalUrl),
    ]);
    const first = `first-${Date.now().toString(36)}`;
    const second = `second-${Date.now().toString(36)}`;
    expect((await setHandle(b, alice, first)).status).toBe(200);
    expect((await setHandle(b, bob, first)).body).toEqual(wireError(409, 'handle-exists'));
    expect((await setHandle(b, alice, second)).status).toBe(200);
    expect(await b.query('SELECT name FROM user_names WHERE user = ? AND name LIKE ?', alice.id, 'h:%')).toEqual([
      { name: `h:${second}` },
    ]);
    expect(await handleTaken(b, bob, first)).toBe(404);
    expect((await setHandle(b, bob, first)).status).toBe(200);
    expect(await handleTaken(b, alice, first)).toBe(200);
    const byHandle = await api(b.publicUrl).post('/login', { handle: first, password: bob.password });
    expect(byHandle.status, byHandle.text).toBe(200);
  });

  it("a deleted account's address and handle are free again", async () => {
    const u = await createUser(b.publicUrl, b.internalUrl);
    const handle = `gone-${Date.now().toString(36)}`;
    expect((await setHandle(b, u, handle)).status).toBe(200);
    expect((await deleteSelf(b.publicUrl, u.token, { password: u.password })).status).toBe(200);
    expect(await b.query('SELECT name FROM user_names WHERE user = ?', u.id)).toEqual([]);
    const again = await register(b, u.email);
    expect(again.status, again.text).toBe(201);
  });
});

describe('names, on a state of the previous version', () => {
  let before: TestBackend;
  let after: TestBackend | undefined;
  let earlier: TestUser;
  const handle = `earlier-${Date.now().toString(36)}`;

  beforeAll(async () => {
    before = await startEditedBackend([]);
    earlier = await createUser(before.publicUrl, before.internalUrl);
    expect((await setHandle(before, earlier, handle)).status).toBe(200);
    // The state before migration 0035: no claims, the names only in the users' rows.
    await before.query('DROP TABLE user_names');
    await before.query("DELETE FROM d1_migrations WHERE name LIKE '0035%'");
  });
  afterAll(async () => {
    await (after ?? before).stop();
  });

  it('are claimed for their users at the next start: they log in by them, and nobody else takes them', async () => {
    await before.stop();
    after = await startEditedBackend([], { stateDir: before.stateDir });
    expect(await after.query('SELECT name, at FROM user_names WHERE user = ? ORDER BY name', earlier.id)).toEqual([
      { name: `e:${earlier.email}`, at: 0 },
      { name: `h:${handle}`, at: 0 },
    ]);
    const byHandle = await api(after.publicUrl).post('/login', { handle, password: earlier.password });
    expect(byHandle.status, byHandle.text).toBe(200);
    expect((await postActivateSend(after.publicUrl, { email: earlier.email })).body).toEqual(
      wireError(409, 'key-exists'),
    );
    const other = await createUser(after.publicUrl, after.internalUrl);
    expect((await setHandle(after, other, handle)).body).toEqual(wireError(409, 'handle-exists'));
  });
});

describe('names, over two partitions', () => {
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([], { partitions: 2 });
  });
  afterAll(async () => b?.stop());

  it("live in their own slot's partition, where login finds them and nobody else takes them", async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser(b.publicUrl, b.internalUrl)));
    const handles = users.map((_, i) => `spread-${i}-${Date.now().toString(36)}`);
    for (const [i, u] of users.entries()) expect((await setHandle(b, u, handles[i]!)).status).toBe(200);
    const placed = users.flatMap((u, i) => [
      { user: u, name: `e:${u.email}`, login: { email: u.email } },
      { user: u, name: `h:${handles[i]}`, login: { handle: handles[i] } },
    ]);
    for (const { user, name } of placed) {
      const binding = partitionOfSlot(slotOf(name), 2) === 0 ? 'DB' : 'DB_1';
      const other = binding === 'DB' ? 'DB_1' : 'DB';
      expect(await b.queryIn(binding, 'SELECT user FROM user_names WHERE name = ?', name), name).toEqual([
        { user: user.id },
      ]);
      expect(await b.queryIn(other, 'SELECT user FROM user_names WHERE name = ?', name), name).toEqual([]);
    }
    const inSecond = placed.filter(({ name }) => partitionOfSlot(slotOf(name), 2) === 1);
    expect(inSecond.length).toBeGreaterThan(0);
    const newcomer = await createUser(b.publicUrl, b.internalUrl);
    for (const { user, name, login } of inSecond) {
      const r = await api(b.publicUrl).post('/login', { ...login, password: user.password });
      expect(r.status, r.text).toBe(200);
      if (name.startsWith('e:'))
        expect((await postActivateSend(b.publicUrl, { email: user.email })).body).toEqual(wireError(409, 'key-exists'));
      else expect((await setHandle(b, newcomer, name.slice(2))).body).toEqual(wireError(409, 'handle-exists'));
    }
  });
});
