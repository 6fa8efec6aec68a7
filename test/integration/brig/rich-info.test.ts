import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { createUser, invitedMember, teamOwner } from '../../helpers/users.js';
import { getUser, getUserRichInfo } from '../../helpers/endpoints/brig.js';
import { deleteTeamMember } from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();
const nobody = '00000000-0000-4000-8000-0000000000ff';

const setRichInfo = (uid: string, richInfo: unknown) =>
  call(internalUrl, `/i/users/${uid}/rich-info`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: typeof richInfo === 'string' ? richInfo : JSON.stringify({ rich_info: richInfo }),
  });

const richInfoOf = (token: string, uid: string) => getUserRichInfo(publicUrl, token, uid);

describe('PUT /i/users/{uid}/rich-info', () => {
  it('stores the list normalised (empty values dropped), replaces it, and takes the list keys in any case', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const fields = [
      { type: 'Department', value: 'Sales' },
      { type: 'Nickname', value: '' },
      { type: 'Title', value: 'Boss' },
    ];
    const put = await setRichInfo(owner.id, { version: 0, fields });
    expect(put.status, put.text).toBe(200);
    expect(put.text).toBe('');
    expect((await richInfoOf(owner.token, owner.id)).body).toEqual({
      version: 0,
      fields: [
        { type: 'Department', value: 'Sales' },
        { type: 'Title', value: 'Boss' },
      ],
    });
    expect((await setRichInfo(owner.id, { VERSION: 0, Fields: [{ type: 'Floor', value: '3' }] })).status).toBe(200);
    expect((await richInfoOf(owner.token, owner.id)).body).toEqual({
      version: 0,
      fields: [{ type: 'Floor', value: '3' }],
    });
  });

  it('refuses field types given twice (whatever their case), other versions and malformed bodies with 400', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const twice = [
      { type: 'Department', value: 'Sales' },
      { type: 'DEPARTMENT', value: '' },
    ];
    for (const body of [
      { version: 0, fields: twice },
      { version: 1, fields: [] },
      { version: '0', fields: [] },
      { version: 0, fields: [{ type: 'Title' }] },
      { version: 0, fields: [{ type: 1, value: 'x' }] },
      { fields: [] },
      [],
    ]) {
      const r = await setRichInfo(owner.id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toEqual(wireError(400, 'bad-request'));
    }
    for (const raw of ['{"rich_info": ', '{"rich_info": 5}', '{}', '[1, 2']) {
      const r = await setRichInfo(owner.id, raw);
      expect(r.status, raw).toBe(400);
      expect(r.body).toEqual(wireError(400, 'bad-request'));
    }
    const badId = await call(internalUrl, '/i/users/not-a-uuid/rich-info', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rich_info: { version: 0, fields: [] } }),
    });
    expect(badId).toMatchObject({ status: 400, body: wireError(400, 'bad-request') });
    expect((await richInfoOf(owner.token, owner.id)).body).toEqual({ version: 0, fields: [] });
  });

  it('refuses more than setRichInfoLimit (5000) characters of types and values with 413, counted after normalising', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    // 1 + 4998 + one astral character: 5000 characters although 5001 UTF-16 units.
    const fits = [{ type: 'A', value: `${'x'.repeat(4998)}😀` }];
    expect((await setRichInfo(owner.id, { version: 0, fields: fits })).status).toBe(200);
    const over = [{ type: 'A', value: 'x'.repeat(5000) }];
    expect(await setRichInfo(owner.id, { version: 0, fields: over })).toMatchObject({
      status: 413,
      body: wireError(413, 'too-large-rich-info'),
    });
    expect((await richInfoOf(owner.token, owner.id)).body.fields).toEqual(fits);
    // A field with an empty value is dropped before counting.
    const dropped = [{ type: 'T'.repeat(6000), value: '' }];
    expect((await setRichInfo(owner.id, { version: 0, fields: dropped })).status).toBe(200);
    expect((await richInfoOf(owner.token, owner.id)).body).toEqual({ version: 0, fields: [] });
  });
});

describe('GET /users/{uid}/rich-info', () => {
  it('shows a member’s rich info to every member of the same team, partners included', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const member = await invitedMember(publicUrl, owner, 'member');
    const partner = await invitedMember(publicUrl, owner, 'partner');
    const fields = [{ type: 'Department', value: 'Sales' }];
    expect((await setRichInfo(member.id, { version: 0, fields })).status).toBe(200);
    for (const reader of [owner, member, partner]) {
      const r = await richInfoOf(reader.token, member.id);
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ version: 0, fields });
    }
    expect((await richInfoOf(member.token, partner.id)).body).toEqual({ version: 0, fields: [] });
  });

  it('refuses users outside the team (other teams, personal users) with 403 insufficient-permissions', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const otherOwner = await teamOwner(publicUrl, internalUrl);
    const personal = await createUser(publicUrl, internalUrl);
    const anotherPersonal = await createUser(publicUrl, internalUrl);
    await setRichInfo(owner.id, { version: 0, fields: [{ type: 'Department', value: 'Sales' }] });
    await setRichInfo(personal.id, { version: 0, fields: [{ type: 'Hobby', value: 'Chess' }] });
    for (const [reader, target] of [
      [otherOwner, owner.id],
      [personal, owner.id],
      [owner, personal.id],
      [anotherPersonal, personal.id],
      [personal, personal.id],
    ] as const) {
      expect(await richInfoOf(reader.token, target)).toMatchObject({
        status: 403,
        body: wireError(403, 'insufficient-permissions'),
      });
    }
  });

  it('answers 404 for unknown users, 400 for a malformed id, and 401 without a token', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    expect(await richInfoOf(owner.token, nobody)).toMatchObject({ status: 404, body: wireError(404, 'not-found') });
    expect(await richInfoOf(owner.token, 'not-a-uuid')).toMatchObject({
      status: 400,
      body: wireError(400, 'bad-request'),
    });
    expect((await getUserRichInfo(publicUrl, undefined, owner.id)).status).toBe(401);
    // The qualified profile route beside it still answers.
    expect((await getUser(publicUrl, owner.token, { domain: 'example.com', id: owner.id })).body.id).toBe(owner.id);
  });

  it('loses the rich info with the account', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const member = await invitedMember(publicUrl, owner);
    await setRichInfo(member.id, { version: 0, fields: [{ type: 'Department', value: 'Sales' }] });
    const removed = await deleteTeamMember(publicUrl, owner.token, owner.team, member.id, {
      password: owner.password,
    });
    expect(removed.status, removed.text).toBe(202);
    expect((await richInfoOf(owner.token, member.id)).body).toEqual({ version: 0, fields: [] });
  });
});
