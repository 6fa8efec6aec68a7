import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MLS_ONE2ONE_NAMESPACE, one2OneConvId } from '../../../src/edge/galley/conversations/one2one-id.js';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { api, connect, createUser, invitedMember, teamOwner } from '../../helpers/users.js';
import {
  getConversation,
  getMLSPublicKeys,
  getOne2OneConversation,
  getSelfConversation,
  postConversation,
} from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();
const DOMAIN = 'example.com';
const q = (id: string) => ({ id, domain: DOMAIN });
const uuidHex = (id: string) => id.replace(/-/g, '');

/** wire-server's version 1 group id of a main conversation, hex: version, type, uuid, no subconversation, domain. */
const groupIdHex = (type: number, conv: string) =>
  `0001${type.toString(16).padStart(4, '0')}${uuidHex(conv)}00${Buffer.from(DOMAIN).toString('hex')}`;
const hexOf = (base64: string) => Buffer.from(base64, 'base64').toString('hex');

/** wire-server's `mlsSelfConvId`: UUIDv5 (SHA-1) of the user id's bytes in the `namespaceMLSSelfConv` namespace. */
function mlsSelfId(user: string): string {
  const namespace = Buffer.from(uuidHex('3eac2a2c-3850-510b-bd08-8a98e80dd4d9'), 'hex');
  const h = createHash('sha1')
    .update(Buffer.concat([namespace, Buffer.from(uuidHex(user), 'hex')]))
    .digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

describe('creating an MLS group conversation', () => {
  it('stores the group id wire-server derives from the conversation, and answers the epoch 0 view', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, a.token);
    const r = await postConversation(publicUrl, a.token, { protocol: 'mls', name: 'MLS' });
    expect(r.status, r.text).toBe(201);
    const id = r.body.qualified_id.id;
    expect(r.body).toMatchObject({ protocol: 'mls', type: 0, epoch: 0, receipt_mode: 0, creator: a.id });
    expect(hexOf(r.body.group_id)).toBe(groupIdHex(0, id));
    expect(r.body.members).toEqual({ self: expect.objectContaining({ id: a.id }), others: [] });
    // From v6 the epoch's time and the cipher suite exist only once a commit set them.
    expect(r.body).not.toHaveProperty('epoch_timestamp');
    expect(r.body).not.toHaveProperty('cipher_suite');

    const v8 = await getConversation(publicUrl, a.token, { domain: DOMAIN, id: id });
    expect(v8.body.group_id).toBe(r.body.group_id);
    const v5 = await me.get(`/v5/conversations/${DOMAIN}/${id}`);
    expect(v5.body).toMatchObject({ group_id: r.body.group_id, epoch: 0, epoch_timestamp: null, cipher_suite: 1 });
    // Two conversations, two groups.
    const other = await postConversation(publicUrl, a.token, { protocol: 'mls' });
    expect(other.body.group_id).not.toBe(r.body.group_id);
  });

  it('refuses any member list, even one naming only the creator: members come by commit', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const nonEmpty = { status: 400, body: wireError(400, 'non-empty-member-list') };
    expect(await postConversation(publicUrl, a.token, { protocol: 'mls', users: [a.id] })).toMatchObject(nonEmpty);
    expect(await postConversation(publicUrl, a.token, { protocol: 'mls', qualified_users: [q(a.id)] })).toMatchObject(
      nonEmpty,
    );
    expect(await postConversation(publicUrl, a.token, { protocol: 'mls', users: [] })).toMatchObject({ status: 201 });
  });
});

describe('GET /conversations/mls-self', () => {
  it('creates the MLS self conversation on first request, with the id and group id wire-server derives', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const me = api(publicUrl, a.token);
    const id = mlsSelfId(a.id);
    const first = await getSelfConversation(publicUrl, a.token);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      qualified_id: q(id),
      type: 1,
      protocol: 'mls',
      epoch: 0,
      creator: a.id,
      access: ['private'],
      access_role: [],
      members: { self: { id: a.id, conversation_role: 'wire_admin' }, others: [] },
    });
    expect(hexOf(first.body.group_id)).toBe(groupIdHex(1, id));
    expect(first.body).not.toHaveProperty('cipher_suite');

    expect((await getSelfConversation(publicUrl, a.token)).body).toEqual(first.body);
    // It is stored: the ordinary conversation routes find it.
    expect((await getConversation(publicUrl, a.token, { domain: DOMAIN, id: id })).body.group_id).toBe(
      first.body.group_id,
    );
    // v5 writes the legacy MLS fields.
    expect((await me.get('/v5/conversations/mls-self')).body).toMatchObject({
      qualified_id: q(id),
      epoch_timestamp: null,
      cipher_suite: 1,
    });
    // Not in v4: there the path is only v0-v8's PUT /conversations/{cnv} (a rename), so 405 as servant answers.
    expect((await me.get('/v4/conversations/mls-self')).status).toBe(405);

    const b = await createUser(publicUrl, internalUrl);
    expect((await getSelfConversation(publicUrl, b.token)).body.qualified_id).toEqual(q(mlsSelfId(b.id)));
  });
});

describe('MLS 1:1 conversations', () => {
  it('answers the same not yet stored conversation to both connected users, with the removal keys', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const b = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, a, b);
    const id = await one2OneConvId(MLS_ONE2ONE_NAMESPACE, q(a.id), q(b.id));
    const keys = (await getMLSPublicKeys(publicUrl, a.token)).body;

    const r = await getOne2OneConversation(publicUrl, a.token, { domain: DOMAIN, id: b.id });
    expect(r.status, r.text).toBe(200);
    expect(r.body.public_keys).toEqual(keys);
    const conv = r.body.conversation;
    expect(conv).toMatchObject({
      qualified_id: id,
      type: 2,
      protocol: 'mls',
      epoch: 0,
      creator: null,
      access: ['private'],
      members: { self: { qualified_id: q(a.id), conversation_role: 'wire_member' }, others: [] },
    });
    expect(hexOf(conv.group_id)).toBe(groupIdHex(2, id.id));
    expect(conv).not.toHaveProperty('cipher_suite');

    const theirs = await getOne2OneConversation(publicUrl, b.token, { domain: DOMAIN, id: a.id });
    expect(theirs.body.conversation).toMatchObject({ qualified_id: id, group_id: conv.group_id });
    expect(theirs.body.conversation.members.self.qualified_id).toEqual(q(b.id));
    // Nothing was stored: a first commit creates the conversation.
    expect(await getConversation(publicUrl, a.token, { domain: DOMAIN, id: id.id })).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
  });

  it('answers JWKs with format=jwk from v7, raw keys in v6, the bare conversation in v5', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const b = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, a, b);
    const me = api(publicUrl, a.token);
    const id = await one2OneConvId(MLS_ONE2ONE_NAMESPACE, q(a.id), q(b.id));

    const jwk = await getOne2OneConversation(publicUrl, a.token, { domain: DOMAIN, id: b.id }, { format: 'jwk' });
    expect(jwk.body.public_keys).toEqual((await getMLSPublicKeys(publicUrl, a.token, { format: 'jwk' })).body);
    expect(
      (await getOne2OneConversation(publicUrl, a.token, { domain: DOMAIN, id: b.id }, { format: 'pem' })).status,
    ).toBe(400);

    const v6 = await me.get(`/v6/conversations/one2one/${DOMAIN}/${b.id}?format=jwk`);
    expect(v6.status, v6.text).toBe(200);
    expect(v6.body.conversation.qualified_id).toEqual(id);
    expect(v6.body.public_keys).toEqual((await me.get('/v6/mls/public-keys')).body);
    expect((await me.get(`/v6/one2one-conversations/${DOMAIN}/${b.id}`)).status).toBe(404);

    const v5 = await me.get(`/v5/conversations/one2one/${DOMAIN}/${b.id}`);
    expect(v5.status, v5.text).toBe(200);
    expect(v5.body).toMatchObject({ qualified_id: id, type: 2, epoch: 0, epoch_timestamp: null, cipher_suite: 1 });
    expect(v5.body).not.toHaveProperty('public_keys');
    expect(await me.get(`/v5/conversations/one2one/remote.example.org/${b.id}`)).toMatchObject({
      status: 400,
      body: wireError(400, 'mls-federated-one2one-not-supported'),
    });
    expect((await me.get(`/v4/conversations/one2one/${DOMAIN}/${b.id}`)).status).toBe(404);
  });

  it('needs a connection or the same team (403 not-connected)', async () => {
    const a = await createUser(publicUrl, internalUrl);
    const stranger = await createUser(publicUrl, internalUrl);
    const notConnected = { status: 403, body: wireError(403, 'not-connected') };
    const me = api(publicUrl, a.token);
    expect(await getOne2OneConversation(publicUrl, a.token, { domain: DOMAIN, id: stranger.id })).toMatchObject(
      notConnected,
    );
    expect(await me.get(`/v6/conversations/one2one/${DOMAIN}/${stranger.id}`)).toMatchObject(notConnected);
    expect(await me.get(`/v5/conversations/one2one/${DOMAIN}/${stranger.id}`)).toMatchObject(notConnected);
    expect(
      await getOne2OneConversation(publicUrl, a.token, { domain: 'remote.example.org', id: stranger.id }),
    ).toMatchObject(notConnected);

    const owner = await teamOwner(publicUrl, internalUrl);
    const member = await invitedMember(publicUrl, owner);
    const r = await getOne2OneConversation(publicUrl, member.token, { domain: DOMAIN, id: owner.id });
    expect(r.status, r.text).toBe(200);
    expect(r.body.conversation.qualified_id).toEqual(
      await one2OneConvId(MLS_ONE2ONE_NAMESPACE, q(owner.id), q(member.id)),
    );
    // A team member is no teammate of an outsider.
    expect(await getOne2OneConversation(publicUrl, owner.token, { domain: DOMAIN, id: stranger.id })).toMatchObject(
      notConnected,
    );
  });
});
