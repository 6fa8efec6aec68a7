import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { addClient, otrEventsOf } from '../../helpers/clients.js';
import { call, wireError, type Reply } from '../../helpers/http.js';
import { legacyOtrMessage, otrMessage } from '../../helpers/otr.js';
import { connect, createUser, invitedMember, teamOwner, type TestUser } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import { postConnection } from '../../helpers/endpoints/brig.js';

const shared = sharedBackend();
const q = (id: string) => ({ id, domain: 'example.com' });
const b64 = (s: string) => Buffer.from(s).toString('base64');

const postProteus = (base: string, token: string, body: Uint8Array): Promise<Reply> =>
  call(base, '/v8/broadcast/proteus/messages', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-protobuf' },
    body: Buffer.from(body),
  });

/** `POST /broadcast/otr/messages` with a JSON object or a protobuf `NewOtrMessage`, and a query. */
const postLegacy = (base: string, token: string, body: object | Uint8Array, query = ''): Promise<Reply> =>
  call(base, `/v8/broadcast/otr/messages${query}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': body instanceof Uint8Array ? 'application/x-protobuf' : 'application/json',
    },
    body: body instanceof Uint8Array ? Buffer.from(body) : JSON.stringify(body),
  });

/** A team (owner with two clients, a member), a connected personal contact, and outsiders who must not be reached. */
async function world(base: string, internal: string) {
  const owner = await teamOwner(base, internal);
  const member = await invitedMember(base, owner);
  const contact = await createUser(base, internal);
  await connect(base, owner, contact);
  const pending = await createUser(base, internal); // asked, never accepted
  expect((await postConnection(base, owner.token, { domain: 'example.com', id: pending.id })).status).toBe(201);
  const otherTeam = await teamOwner(base, internal);
  const o1 = await addClient(base, owner);
  const o2 = await addClient(base, owner, { password: owner.password });
  const m1 = await addClient(base, member);
  const k1 = await addClient(base, contact);
  const p1 = await addClient(base, pending);
  const x1 = await addClient(base, otherTeam);
  return { owner, member, contact, pending, otherTeam, o1, o2, m1, k1, p1, x1 };
}

describe('POST /broadcast/proteus/messages', () => {
  const { publicUrl, internalUrl } = shared;

  it('reaches the team and contacts in their self conversations; personal users have no team', async () => {
    const { owner, member, contact, o1, o2, m1, k1 } = await world(publicUrl, internalUrl);
    const missing = await postProteus(publicUrl, owner.token, otrMessage(o1, []));
    expect(missing.status).toBe(412);
    expect(missing.body.missing).toEqual({
      'example.com': { [owner.id]: [o2], [member.id]: [m1], [contact.id]: [k1] },
    });
    const everyone = [
      { user: owner.id, client: o2, text: 'status' },
      { user: member.id, client: m1, text: 'status' },
      { user: contact.id, client: k1, text: 'status' },
    ];
    const sent = await postProteus(publicUrl, owner.token, otrMessage(o1, everyone));
    expect(sent.status).toBe(201);
    const [event] = await otrEventsOf(publicUrl, contact, k1);
    expect(event).toMatchObject({ conversation: contact.id, qualified_conversation: q(contact.id), from: owner.id });
    const personal = await postProteus(publicUrl, contact.token, otrMessage(k1, []));
    expect(personal).toMatchObject({ status: 404, body: wireError(404, 'no-team') });
  });
});

describe('POST /broadcast/otr/messages', () => {
  const { publicUrl, internalUrl } = shared;

  it('expects the team and accepted contacts, answers an unqualified ClientMismatch, delivers into each self conversation', async () => {
    const { owner, member, contact, pending, otherTeam, o1, o2, m1, k1, p1, x1 } = await world(publicUrl, internalUrl);
    const toMember = { sender: o1, recipients: { [member.id]: { [m1]: b64('hi') } } };
    const blocked = await postLegacy(publicUrl, owner.token, toMember);
    expect(blocked.status).toBe(412);
    expect(blocked.body).toEqual({
      time: expect.stringMatching(/\.\d{3}Z$/),
      missing: { [owner.id]: [o2], [contact.id]: [k1] },
      redundant: {},
      deleted: {},
    });
    expect(await otrEventsOf(publicUrl, member, m1)).toEqual([]);

    const socket = await openSocket(publicUrl, `/v8/await?access_token=${contact.token}&client=${k1}`);
    const everyone = {
      sender: o1,
      data: b64('blob'),
      recipients: {
        [owner.id]: { [o2]: b64('to o2') },
        [member.id]: { [m1]: b64('to m1') },
        [contact.id]: { [k1]: b64('to k1') },
        // Neither a teammate nor an accepted contact: not expected, not delivered.
        [pending.id]: { [p1]: b64('x') },
        [otherTeam.id]: { [x1]: b64('x') },
      },
    };
    const sent = await postLegacy(publicUrl, owner.token, everyone);
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body).toEqual({
      time: expect.any(String),
      missing: {},
      redundant: { [pending.id]: [p1], [otherTeam.id]: [x1] },
      deleted: {},
    });
    const live = await socket.next((m) => m.payload[0].type === 'conversation.otr-message-add');
    await socket.close();
    expect(live.payload[0]).toEqual({
      type: 'conversation.otr-message-add',
      conversation: contact.id,
      qualified_conversation: q(contact.id),
      from: owner.id,
      qualified_from: q(owner.id),
      time: sent.body.time,
      via: 'user',
      data: { sender: o1, recipient: k1, text: b64('to k1'), data: b64('blob') },
    });
    const [toM1] = await otrEventsOf(publicUrl, member, m1);
    expect(toM1).toMatchObject({
      conversation: member.id,
      qualified_conversation: q(member.id),
      data: { recipient: m1, text: b64('to m1') },
    });
    expect(toM1.team).toBeUndefined();
    expect((await otrEventsOf(publicUrl, owner, o2)).map((e: any) => e.conversation)).toEqual([owner.id]);
    expect(await otrEventsOf(publicUrl, pending, p1)).toEqual([]);
    expect(await otrEventsOf(publicUrl, otherTeam, x1)).toEqual([]);
  });

  it('applies ignore_missing and report_missing (query, JSON body, protobuf) in wire order', async () => {
    const { owner, member, contact, o1, o2, m1, k1 } = await world(publicUrl, internalUrl);
    const toMember = { sender: o1, recipients: { [member.id]: { [m1]: b64('x') } } };
    const status = async (query: string, body: object | Uint8Array = toMember) =>
      (await postLegacy(publicUrl, owner.token, body, query)).status;
    expect(await status('?ignore_missing=true')).toBe(201);
    expect(await status('?ignore_missing=false')).toBe(412);
    expect(await status(`?ignore_missing=${contact.id}`)).toBe(412); // the owner's o2 is still missing
    expect(await status(`?ignore_missing=${owner.id},${contact.id}`)).toBe(201);
    expect(await status('?report_missing=false')).toBe(201);
    expect(await status(`?report_missing=${member.id}`)).toBe(201);
    // ignore_missing wins over report_missing in the query; the body's report_missing wins over both.
    expect(await status(`?ignore_missing=true&report_missing=true`)).toBe(201);
    const reportContact = await postLegacy(
      publicUrl,
      owner.token,
      { ...toMember, report_missing: [contact.id] },
      '?ignore_missing=true',
    );
    expect(reportContact).toMatchObject({ status: 412, body: { missing: { [contact.id]: [k1] } } });

    const proto = legacyOtrMessage(o1, [{ user: member.id, client: m1, text: 'pb' }], { reportMissing: [owner.id] });
    expect(await postLegacy(publicUrl, owner.token, proto)).toMatchObject({
      status: 412,
      body: { missing: { [owner.id]: [o2] } },
    });
    const all = legacyOtrMessage(o1, [
      { user: owner.id, client: o2, text: 'pb' },
      { user: member.id, client: m1, text: 'pb' },
      { user: contact.id, client: k1, text: 'pb' },
    ]);
    expect((await postLegacy(publicUrl, owner.token, all)).status).toBe(201);
    const received = (await otrEventsOf(publicUrl, contact, k1)).map((e: any) =>
      Buffer.from(e.data.text, 'base64').toString(),
    );
    expect(received).toEqual(['pb']);
  });

  it('refuses personal users (no-team) and bad input with 400 bad-request', async () => {
    const { owner, contact, o1, m1, member, k1 } = await world(publicUrl, internalUrl);
    expect(
      await postLegacy(publicUrl, contact.token, { sender: k1, recipients: {} }, '?ignore_missing=true'),
    ).toMatchObject({
      status: 404,
      body: wireError(404, 'no-team'),
    });
    const bad: Array<object | Uint8Array> = [
      { sender: o1, recipients: { [member.id]: { [m1]: '%%%' } } }, // not base64
      { sender: 'not-hex', recipients: {} },
      { sender: o1, recipients: { 'not-a-uuid': {} } },
      { sender: o1, recipients: {}, report_missing: ['nope'] },
      { sender: o1, recipients: {}, native_priority: 'urgent' },
      new Uint8Array([0x0a, 0xff, 0xff, 0x01]),
    ];
    for (const body of bad)
      expect(await postLegacy(publicUrl, owner.token, body)).toMatchObject({
        status: 400,
        body: wireError(400, 'bad-request'),
      });
    const noBody = await call(publicUrl, '/v8/broadcast/otr/messages', {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(noBody).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
    const anonymous = await call(publicUrl, '/v8/broadcast/otr/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender: o1, recipients: {} }),
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('broadcast fan-out limit (maxFanoutSize 2)', () => {
  let b: TestBackend;
  let owner: TestUser;
  let members: TestUser[];
  let clients: string[];
  beforeAll(async () => {
    b = await startEditedBackend([['galley.yaml', ['settings', 'maxFanoutSize'], 2]]);
    const o = await teamOwner(b.publicUrl, b.internalUrl);
    owner = o;
    members = [await invitedMember(b.publicUrl, o), await invitedMember(b.publicUrl, o)];
    clients = [
      await addClient(b.publicUrl, owner),
      await addClient(b.publicUrl, members[0]!),
      await addClient(b.publicUrl, members[1]!),
    ];
  });
  afterAll(() => b?.stop());

  it('refuses to fetch a team larger than the limit, unless report_missing names few enough users', async () => {
    const [o1, m1, n1] = clients as [string, string, string];
    const [m, n] = members as [TestUser, TestUser];
    const tooMany = wireError(400, 'too-many-users-to-broadcast');
    const toM = { sender: o1, recipients: { [m.id]: { [m1]: b64('x') } } };
    expect(await postLegacy(b.publicUrl, owner.token, toM)).toMatchObject({ status: 400, body: tooMany });
    expect(await postLegacy(b.publicUrl, owner.token, toM, '?ignore_missing=true')).toMatchObject({
      status: 400,
      body: tooMany,
    });
    expect(
      await postProteus(b.publicUrl, owner.token, otrMessage(o1, [{ user: m.id, client: m1, text: 'x' }])),
    ).toMatchObject({ status: 400, body: tooMany });

    // report_missing: only the listed and addressed users are looked up.
    const sent = await postLegacy(b.publicUrl, owner.token, toM, `?report_missing=${m.id}`);
    expect(sent).toMatchObject({ status: 201, body: { missing: {}, redundant: {}, deleted: {} } });
    expect((await otrEventsOf(b.publicUrl, m, m1)).length).toBe(1);
    const reportOnly = { reportOnly: { userIds: [q(m.id)] } };
    expect(
      (await postProteus(b.publicUrl, owner.token, otrMessage(o1, [{ user: m.id, client: m1, text: 'x' }], reportOnly)))
        .status,
    ).toBe(201);
    expect(
      await postLegacy(b.publicUrl, owner.token, toM, `?report_missing=${m.id},${n.id},${owner.id}`),
    ).toMatchObject({ status: 400, body: tooMany });
    const toThree = {
      sender: o1,
      recipients: { [m.id]: { [m1]: b64('x') }, [n.id]: { [n1]: b64('x') }, [crypto.randomUUID()]: { '1': b64('x') } },
    };
    expect(await postLegacy(b.publicUrl, owner.token, toThree, `?report_missing=${m.id}`)).toMatchObject({
      status: 400,
      body: tooMany,
    });
  });
});
