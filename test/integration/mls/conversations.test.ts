import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { api, createUser } from '../../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();
const DOMAIN = 'example.com';
const q = (id: string) => ({ id, domain: DOMAIN });
const uuidHex = (id: string) => id.replace(/-/g, '');

/** wire-server's version 1 group id of a main conversation, hex: version, type, uuid, no subconversation, domain. */
const groupIdHex = (type: number, conv: string) =>
  `0001${type.toString(16).padStart(4, '0')}${uuidHex(conv)}00${Buffer.from(DOMAIN).toString('hex')}`;
const hexOf = (base64: string) => Buffer.from(base64, 'base64').toString('hex');

describe('creating an MLS group conversation', () => {
  it('stores the group id wire-server derives from the conversation, and answers the epoch 0 view', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, a.token);
    const r = await me.post('/v8/conversations', { protocol: 'mls', name: 'MLS' });
    expect(r.status, r.text).toBe(201);
    const id = r.body.qualified_id.id;
    expect(r.body).toMatchObject({ protocol: 'mls', type: 0, epoch: 0, receipt_mode: 0, creator: a.id });
    expect(hexOf(r.body.group_id)).toBe(groupIdHex(0, id));
    expect(r.body.members).toEqual({ self: expect.objectContaining({ id: a.id }), others: [] });
    // From v6 the epoch's time and the cipher suite exist only once a commit set them.
    expect(r.body).not.toHaveProperty('epoch_timestamp');
    expect(r.body).not.toHaveProperty('cipher_suite');

    const v8 = await me.get(`/v8/conversations/${DOMAIN}/${id}`);
    expect(v8.body.group_id).toBe(r.body.group_id);
    const v5 = await me.get(`/v5/conversations/${DOMAIN}/${id}`);
    expect(v5.body).toMatchObject({ group_id: r.body.group_id, epoch: 0, epoch_timestamp: null, cipher_suite: 1 });
    // Two conversations, two groups.
    const other = await me.post('/v8/conversations', { protocol: 'mls' });
    expect(other.body.group_id).not.toBe(r.body.group_id);
  });

  it('refuses any member list, even one naming only the creator: members come by commit', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, a.token);
    const nonEmpty = { status: 400, body: wireError(400, 'non-empty-member-list') };
    expect(await me.post('/v8/conversations', { protocol: 'mls', users: [a.id] })).toMatchObject(nonEmpty);
    expect(await me.post('/v8/conversations', { protocol: 'mls', qualified_users: [q(a.id)] })).toMatchObject(nonEmpty);
    expect(await me.post('/v8/conversations', { protocol: 'mls', users: [] })).toMatchObject({ status: 201 });
  });
});
