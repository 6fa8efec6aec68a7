import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { legacyConversation } from '../../helpers/legacy-conversation.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import { getConversation, listConversations, postConversation } from '../../helpers/endpoints/galley.js';

const DOMAIN = 'example.com';

// The state a commit leaves, as an earlier version left it in D1 (the conversation's object moves it in).
describe('MLS state that commits leave behind', () => {
  let b: TestBackend;
  let alice: TestUser;
  beforeAll(async () => {
    b = await startEditedBackend([]);
    alice = await createUser(b.publicUrl, b.internalUrl);
  });
  afterAll(() => b?.stop());

  const newMlsConversation = async (user: TestUser) => {
    const r = await postConversation(b.publicUrl, user.token, { protocol: 'mls' });
    expect(r.status, r.text).toBe(201);
    return { id: r.body.qualified_id.id as string, groupId: r.body.group_id as string };
  };
  /** An MLS conversation of the user's after commits: its group at `state`. */
  const committed = async (
    user: TestUser,
    state: { groupInfo?: string; epoch?: number; epochTimestamp?: number; cipherSuite?: number },
  ) => {
    const groupId = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
    const id = await legacyConversation(b, { protocol: 'mls', groupId, members: [{ id: user.id }], ...state });
    return { id, groupId };
  };
  const groupInfo = (user: TestUser, conv: string, version = 8) =>
    fetch(`${b.publicUrl}/v${version}/conversations/${DOMAIN}/${conv}/groupinfo`, {
      headers: { authorization: `Bearer ${user.token}` },
    });

  it('GET …/groupinfo answers the stored GroupInfo bytes as message/mls, 404 before a commit stored one', async () => {
    const conv = await newMlsConversation(alice);
    const before = await groupInfo(alice, conv.id);
    expect(before.status).toBe(404);
    expect(await before.json()).toEqual(wireError(404, 'mls-missing-group-info'));

    const bytes = Buffer.from([0x00, 0x01, 0x00, 0x04, 0xff, 0x80, 0x7f, 0x0a]);
    const stored = await committed(alice, { epoch: 1, groupInfo: bytes.toString('base64') });
    const r = await groupInfo(alice, stored.id);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('message/mls');
    expect(Buffer.from(await r.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await groupInfo(alice, stored.id, 5)).status).toBe(200);
    expect((await groupInfo(alice, stored.id, 4)).status).toBe(404);
  });

  it('GET …/groupinfo is for members (404 no-conversation); a Proteus conversation has none', async () => {
    const conv = await committed(alice, { epoch: 1, groupInfo: 'AAE=' });
    const stranger = await createUser(b.publicUrl, b.internalUrl);
    const outsider = await groupInfo(stranger, conv.id);
    expect(outsider.status).toBe(404);
    expect(await outsider.json()).toEqual(wireError(404, 'no-conversation'));
    expect(await (await groupInfo(alice, crypto.randomUUID())).json()).toEqual(wireError(404, 'no-conversation'));

    const proteus = await postConversation(b.publicUrl, alice.token, { name: 'P' });
    const none = await groupInfo(alice, proteus.body.qualified_id.id);
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual(wireError(404, 'mls-missing-group-info'));
  });

  it('conversation JSON shows the epoch, its time and the cipher suite once a commit set them', async () => {
    const epochAt = Date.UTC(2026, 10, 24, 12, 30, 5, 120);
    const conv = await committed(alice, { epoch: 3, epochTimestamp: epochAt, cipherSuite: 2 });
    const me = api(b.publicUrl, alice.token);
    // wire-server's UTCTime JSON: fractional seconds without trailing zeros.
    const active = { group_id: conv.groupId, epoch: 3, epoch_timestamp: '2026-11-24T12:30:05.12Z', cipher_suite: 2 };
    expect((await getConversation(b.publicUrl, alice.token, { domain: DOMAIN, id: conv.id })).body).toMatchObject(
      active,
    );
    expect((await me.get(`/v5/conversations/${DOMAIN}/${conv.id}`)).body).toMatchObject(active);
    const listed = await listConversations(b.publicUrl, alice.token, {
      qualified_ids: [{ id: conv.id, domain: DOMAIN }],
    });
    expect(listed.body.found[0]).toMatchObject(active);

    const whole = await committed(alice, { epoch: 3, epochTimestamp: Date.UTC(2026, 0, 2, 3, 4, 5), cipherSuite: 2 });
    expect(
      (await getConversation(b.publicUrl, alice.token, { domain: DOMAIN, id: whole.id })).body.epoch_timestamp,
    ).toBe('2026-01-02T03:04:05Z');
  });
});
