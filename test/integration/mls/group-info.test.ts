import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';

const DOMAIN = 'example.com';

// Commits are not routed yet, so the state a commit leaves is written into D1 directly.
describe('MLS state that commits leave behind', () => {
  let b: TestBackend;
  let alice: TestUser;
  beforeAll(async () => {
    b = await startEditedBackend([]);
    alice = await createUser(b.publicUrl, b.internalUrl);
  });
  afterAll(() => b?.stop());

  const newMlsConversation = async (user: TestUser) => {
    const r = await api(b.publicUrl, user.token).post('/v8/conversations', { protocol: 'mls' });
    expect(r.status, r.text).toBe(201);
    return { id: r.body.qualified_id.id as string, groupId: r.body.group_id as string };
  };

  it('conversation JSON shows the epoch, its time and the cipher suite once a commit set them', async () => {
    const conv = await newMlsConversation(alice);
    const epochAt = Date.UTC(2026, 10, 24, 12, 30, 5, 120);
    await b.query(
      'UPDATE conversations SET epoch = 3, epoch_timestamp = ?, cipher_suite = 2 WHERE id = ?',
      epochAt,
      conv.id,
    );
    const me = api(b.publicUrl, alice.token);
    // wire-server's UTCTime JSON: fractional seconds without trailing zeros.
    const active = { group_id: conv.groupId, epoch: 3, epoch_timestamp: '2026-11-24T12:30:05.12Z', cipher_suite: 2 };
    expect((await me.get(`/v8/conversations/${DOMAIN}/${conv.id}`)).body).toMatchObject(active);
    expect((await me.get(`/v5/conversations/${DOMAIN}/${conv.id}`)).body).toMatchObject(active);
    const listed = await me.post('/v8/conversations/list', { qualified_ids: [{ id: conv.id, domain: DOMAIN }] });
    expect(listed.body.found[0]).toMatchObject(active);

    await b.query('UPDATE conversations SET epoch_timestamp = ? WHERE id = ?', Date.UTC(2026, 0, 2, 3, 4, 5), conv.id);
    expect((await me.get(`/v8/conversations/${DOMAIN}/${conv.id}`)).body.epoch_timestamp).toBe('2026-01-02T03:04:05Z');
  });
});
