import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { legacyOtrMessage, otrMessage, postOtr } from '../../helpers/otr.js';
import { addClient as addClient_, otrEventsOf } from '../../helpers/clients.js';
import { connect, createUser, login, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { postConversation, postOtrMessage, removeMember } from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();
const q = (id: string) => ({ id, domain: 'example.com' });

const addClient = (u: TestUser, password?: string) =>
  addClient_(publicUrl, u, password === undefined ? {} : { password });

/** A with two clients, B and C with one each, in one group. */
async function setup() {
  const [a, b, c] = [
    await createUser(publicUrl, internalUrl),
    await createUser(publicUrl, internalUrl),
    await createUser(publicUrl, internalUrl),
  ];
  await connect(publicUrl, a, b);
  await connect(publicUrl, a, c);
  const a1 = await addClient(a);
  const a2 = await addClient(a, a.password);
  const b1 = await addClient(b);
  const c1 = await addClient(c);
  const conv = (await postConversation(publicUrl, a.token, { qualified_users: [q(b.id), q(c.id)] })).body.qualified_id
    .id;
  return { a, b, c, a1, a2, b1, c1, conv };
}

const otrEvents = (u: TestUser, client: string) => otrEventsOf(publicUrl, u, client);

describe('Proteus messages', () => {
  it('answers 412 naming the missing clients and sends nothing; then delivers one event per client', async () => {
    const { a, b, c, a1, a2, b1, c1, conv } = await setup();
    const first = await postOtr(publicUrl, a.token, conv, otrMessage(a1, [{ user: b.id, client: b1, text: 'to b' }]));
    expect(first.status).toBe(412);
    expect(first.body).toEqual({
      time: expect.stringMatching(/\.\d{3}Z$/),
      missing: { 'example.com': { [a.id]: [a2], [c.id]: [c1] } },
      redundant: {},
      deleted: {},
      failed_to_send: {},
      failed_to_confirm_clients: {},
    });
    expect(await otrEvents(b, b1)).toEqual([]);

    const socket = await openSocket(publicUrl, `/v8/await?access_token=${b.token}&client=${b1}`);
    const all = [
      { user: a.id, client: a2, text: 'to a2' },
      { user: b.id, client: b1, text: 'to b1' },
      { user: c.id, client: c1, text: 'to c1' },
    ];
    const sent = await postOtr(
      publicUrl,
      a.token,
      conv,
      otrMessage(a1, all, { reportAll: {} }, { blob: Buffer.from('shared') }),
    );
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ missing: {}, redundant: {}, deleted: {} });
    const live = await socket.next((m) => m.payload[0].type === 'conversation.otr-message-add');
    expect(live.payload[0]).toEqual({
      type: 'conversation.otr-message-add',
      conversation: conv,
      qualified_conversation: q(conv),
      from: a.id,
      qualified_from: q(a.id),
      time: sent.body.time,
      via: 'user',
      data: {
        sender: a1,
        recipient: b1,
        text: Buffer.from('to b1').toString('base64'),
        data: Buffer.from('shared').toString('base64'),
      },
    });
    expect((await otrEvents(c, c1)).map((e: any) => e.data.recipient)).toEqual([c1]);
    expect((await otrEvents(a, a2)).map((e: any) => Buffer.from(e.data.text, 'base64').toString())).toEqual(['to a2']);
    // Each ciphertext reaches only its client.
    expect(await otrEvents(a, a1)).toEqual([]);
    await socket.close();
  });

  it('applies the mismatch strategies and reports redundant and deleted clients', async () => {
    const { a, b, c, a1, a2, b1, c1, conv } = await setup();
    const onlyB = [{ user: b.id, client: b1, text: 'x' }];
    expect((await postOtr(publicUrl, a.token, conv, otrMessage(a1, onlyB, { ignoreAll: {} }))).status).toBe(201);
    const reportC = await postOtr(
      publicUrl,
      a.token,
      conv,
      otrMessage(a1, onlyB, { reportOnly: { userIds: [q(c.id)] } }),
    );
    expect(reportC).toMatchObject({ status: 412, body: { missing: { 'example.com': { [c.id]: [c1] } } } });
    const ignoreAC = await postOtr(
      publicUrl,
      a.token,
      conv,
      otrMessage(a1, onlyB, { ignoreOnly: { userIds: [q(a.id), q(c.id)] } }),
    );
    expect(ignoreAC.status).toBe(201);

    const outsider = crypto.randomUUID();
    const extras = [
      { user: a.id, client: a2, text: 'x' },
      { user: b.id, client: b1, text: 'x' },
      { user: c.id, client: c1, text: 'x' },
      { user: b.id, client: 'abcdef', text: 'x' }, // not B's client: deleted
      { user: outsider, client: '1', text: 'x' }, // not a member: redundant
      { user: a.id, client: a1, text: 'x' }, // the sending client itself: redundant
    ];
    const r = await postOtr(publicUrl, a.token, conv, otrMessage(a1, extras));
    expect(r.status).toBe(201);
    expect(r.body.deleted).toEqual({ 'example.com': { [b.id]: ['abcdef'] } });
    expect(r.body.redundant).toEqual({ 'example.com': { [outsider]: ['1'], [a.id]: [a1] } });
  });

  it('refuses bad input: malformed protobuf, no strategy, unknown conversation, non-members, unknown clients', async () => {
    const { a, b, a1, b1, conv } = await setup();
    const msg = otrMessage(a1, [{ user: b.id, client: b1, text: 'x' }], { ignoreAll: {} });
    expect(await postOtr(publicUrl, a.token, conv, new Uint8Array([0x0a, 0xff, 0xff, 0x01]))).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    expect(await postOtr(publicUrl, a.token, conv, otrMessage(a1, [], {}))).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    expect(await postOtr(publicUrl, a.token, crypto.randomUUID(), msg)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
    const outsider = await createUser(publicUrl, internalUrl);
    const o1 = await addClient(outsider);
    expect(await postOtr(publicUrl, outsider.token, conv, otrMessage(o1, [], { ignoreAll: {} }))).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
    expect(await postOtr(publicUrl, a.token, conv, otrMessage('deadbeef', [], { ignoreAll: {} }))).toMatchObject({
      status: 403,
      body: wireError(403, 'unknown-client'),
    });
  });

  it('keeps transient messages out of the stream but delivers them live', async () => {
    const { a, b, a1, b1, conv } = await setup();
    const socket = await openSocket(publicUrl, `/v8/await?access_token=${b.token}&client=${b1}`);
    const msg = otrMessage(a1, [{ user: b.id, client: b1, text: 'ephemeral' }], { ignoreAll: {} }, { transient: true });
    expect((await postOtr(publicUrl, a.token, conv, msg)).status).toBe(201);
    expect(await socket.next((m) => m.payload[0].type === 'conversation.otr-message-add')).toMatchObject({
      transient: true,
    });
    expect(await otrEvents(b, b1)).toEqual([]);
    await socket.close();
  });

  it('sees new clients and members at once (the conversation object re-reads them)', async () => {
    const { a, b, c, a1, a2, b1, c1, conv } = await setup();
    const everyone = [
      { user: a.id, client: a2, text: 'x' },
      { user: b.id, client: b1, text: 'x' },
      { user: c.id, client: c1, text: 'x' },
    ];
    expect((await postOtr(publicUrl, a.token, conv, otrMessage(a1, everyone))).status).toBe(201);
    const bAgain = await login(publicUrl, b.email, b.password);
    const b2 = await addClient({ ...b, token: bAgain.token }, b.password);
    expect((await postOtr(publicUrl, a.token, conv, otrMessage(a1, everyone))).body.missing).toEqual({
      'example.com': { [b.id]: [b2] },
    });
    await removeMember(publicUrl, a.token, { domain: 'example.com', id: conv }, { domain: 'example.com', id: c.id });
    const r = await postOtr(
      publicUrl,
      a.token,
      conv,
      otrMessage(a1, [...everyone, { user: b.id, client: b2, text: 'x' }]),
    );
    expect(r.status).toBe(201);
    expect(r.body.redundant).toEqual({ 'example.com': { [c.id]: [c1] } });
  });
});

describe('legacy /conversations/{cnv}/otr/messages', () => {
  it('takes JSON with unqualified maps and answers ClientMismatch', async () => {
    const { a, b, c, a1, a2, b1, c1, conv } = await setup();
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const partial = { sender: a1, recipients: { [b.id]: { [b1]: b64('hi b') } } };
    const blocked = await postOtrMessage(publicUrl, a.token, conv, partial);
    expect(blocked).toMatchObject({
      status: 412,
      body: { missing: { [a.id]: [a2], [c.id]: [c1] }, redundant: {}, deleted: {} },
    });
    expect(blocked.body.failed_to_send).toBeUndefined();
    expect((await postOtrMessage(publicUrl, a.token, conv, partial, { ignore_missing: true })).status).toBe(201);
    expect((await postOtrMessage(publicUrl, a.token, conv, partial, { report_missing: b.id })).status).toBe(201);
    expect(
      (await postOtrMessage(publicUrl, a.token, conv, { ...partial, report_missing: [c.id] })).body.missing,
    ).toEqual({ [c.id]: [c1] });
    expect((await otrEvents(b, b1)).map((e: any) => Buffer.from(e.data.text, 'base64').toString())).toEqual([
      'hi b',
      'hi b',
    ]);
    expect(
      await postOtrMessage(publicUrl, a.token, conv, { sender: a1, recipients: { [b.id]: { [b1]: '%%%' } } }),
    ).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
  });

  it('takes a protobuf NewOtrMessage (the JSON schema is not applied to it)', async () => {
    const { a, b, c, a1, a2, b1, c1, conv } = await setup();
    const post = (body: Uint8Array, query = '') =>
      call(publicUrl, `/v8/conversations/${conv}/otr/messages${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/x-protobuf' },
        body: Buffer.from(body),
      });
    const toB = [{ user: b.id, client: b1, text: 'pb' }];
    expect(await post(legacyOtrMessage(a1, toB))).toMatchObject({
      status: 412,
      body: { missing: { [a.id]: [a2], [c.id]: [c1] } },
    });
    expect(await post(legacyOtrMessage(a1, toB, { reportMissing: [c.id] }), '?ignore_missing=true')).toMatchObject({
      status: 412,
      body: { missing: { [c.id]: [c1] } },
    });
    expect((await post(legacyOtrMessage(a1, toB), '?ignore_missing=true')).status).toBe(201);
    expect((await otrEvents(b, b1)).map((e: any) => Buffer.from(e.data.text, 'base64').toString())).toEqual(['pb']);
  });
});

describe('Proteus message order', () => {
  it('gives every recipient the same order when one sender sends many messages at once', async () => {
    const { a, b, c, a1, a2, b1, c1, conv } = await setup();
    const texts = Array.from({ length: 24 }, (_, i) => `m${i}`);
    // All in flight together: the conversation object picks an order, and every recipient,
    // whichever shard holds them, must see that same order.
    const sent = await Promise.all(
      texts.map((t) =>
        postOtr(
          publicUrl,
          a.token,
          conv,
          otrMessage(a1, [
            { user: a.id, client: a2, text: t },
            { user: b.id, client: b1, text: t },
            { user: c.id, client: c1, text: t },
          ]),
        ),
      ),
    );
    expect(sent.map((r) => r.status)).toEqual(texts.map(() => 201));
    const order = async (u: TestUser, client: string) =>
      (await otrEvents(u, client)).map((e: any) => Buffer.from(e.data.text, 'base64').toString());
    const seenByB = await order(b, b1);
    expect([...seenByB].sort()).toEqual([...texts].sort());
    expect(await order(c, c1)).toEqual(seenByB);
    expect(await order(a, a2)).toEqual(seenByB);
  });
});
