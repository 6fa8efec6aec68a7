import SCIMMY from 'scimmy';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import { invitationCode, lastMail } from '../../helpers/mailbox.js';
import type { TestIdp } from '../../helpers/saml-idp.js';
import { teamWithIdp, accessToken, signIn } from '../../helpers/saml-login.js';
import { api, teamOwner, type TeamOwner } from '../../helpers/users.js';
import {
  getSelf,
  getUserRichInfo,
  postAccess,
  postLogin,
  postRegister,
  putSelf,
  putSelfHandle,
} from '../../helpers/endpoints/brig.js';
import { createScimToken, deleteIdp } from '../../helpers/endpoints/spar.js';

const { publicUrl, internalUrl } = sharedBackend();

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const EXTENSION = 'urn:ietf:params:scim:schemas:extension:wire:1.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** A SCIM client holding a team's token, speaking application/scim+json. */
function scimClient(token: string | undefined) {
  const send = (method: string, path: string, body?: unknown) =>
    call(publicUrl, `/scim/v2${path}`, {
      method,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    create: (user: unknown) => send('POST', '/Users', user),
    get: (id: string) => send('GET', `/Users/${id}`),
    find: (filter: string) => send('GET', `/Users?filter=${encodeURIComponent(filter)}`),
    list: () => send('GET', '/Users'),
    replace: (id: string, user: unknown) => send('PUT', `/Users/${id}`, user),
    patch: (id: string, operations: SCIMMY.Messages.PatchOp.PatchOpOperation[]) =>
      send('PATCH', `/Users/${id}`, new SCIMMY.Messages.PatchOp({ schemas: [PATCH], Operations: operations })),
    remove: (id: string) => send('DELETE', `/Users/${id}`),
    raw: send,
  };
}

const scimError = (status: number, scimType?: string) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
  status: String(status),
  ...(scimType === undefined ? {} : { scimType }),
  detail: expect.any(String),
});

/** The resource conforms to RFC 7643's User schema (wire sends roles as plain strings). */
function conformsToUserSchema(resource: any) {
  const { roles: _, [EXTENSION]: _e, 'urn:wire:scim:schemas:profile:1.0': _p, ...core } = resource;
  expect(() => SCIMMY.Schemas.User.definition.coerce(core, 'out')).not.toThrow();
}

const unique = () => crypto.randomUUID().slice(0, 8);

describe('spar: SCIM provisioning', () => {
  let owner: TeamOwner;
  let idp: TestIdp;
  let idpId: string;
  let scim: ReturnType<typeof scimClient>;

  beforeAll(async () => {
    ({ owner, idp, idpId } = await teamWithIdp(publicUrl, internalUrl));
    const token = await createScimToken(publicUrl, owner.token, {
      description: 'SCIM test client',
      name: 'test client',
      idp: idpId,
      password: owner.password,
    });
    expect(token.status, token.text).toBe(200);
    scim = scimClient(token.body.token);
  });

  it('provisions a user who signs in through the IdP, finds, patches and deprovisions them', async () => {
    const handle = `alice-${unique()}`;
    const externalId = `${handle}@corp.example`;
    const created = await scim.create({
      schemas: [USER, EXTENSION],
      userName: handle.toUpperCase(),
      externalId,
      displayName: 'Alice',
      preferredLanguage: 'de',
      roles: ['admin'],
      [EXTENSION]: { Department: 'Sales' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('content-type')).toContain('application/scim+json');
    const alice = created.body;
    expect(alice).toMatchObject({
      userName: handle,
      externalId,
      displayName: 'Alice',
      preferredLanguage: 'de',
      active: true,
      emails: [{ value: externalId }],
      roles: ['admin'],
      [EXTENSION]: { Department: 'Sales' },
      'urn:wire:scim:schemas:profile:1.0': {
        richInfo: { version: 0, fields: [{ type: 'Department', value: 'Sales' }] },
      },
      meta: { resourceType: 'User', location: `http://127.0.0.1:8080/scim/v2/Users/${alice.id}` },
    });
    conformsToUserSchema(alice);
    // validateSAMLemails is on: the address gets a validation mail, in the user's language.
    expect((await lastMail(publicUrl, externalId)).subject).toBe('Dein Bestätigungscode');
    expect((await scim.get(alice.id)).body).toEqual(alice);

    for (const filter of [
      `userName eq "${handle}"`,
      `externalId EQ "${externalId}"`,
      `${USER}:userName eq "${handle}"`,
    ]) {
      const found = await scim.find(filter);
      expect(found.status, found.text).toBe(200);
      expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id: alice.id }] });
    }
    expect((await scim.find('userName eq "nobody-here"')).body).toMatchObject({ totalResults: 0, Resources: [] });
    expect(await scim.list()).toMatchObject({ status: 400, body: scimError(400, 'tooMany') });
    expect(await scim.find('displayName eq "Alice"')).toMatchObject({
      status: 400,
      body: scimError(400, 'invalidFilter'),
    });
    expect(await scim.find('userName sw "al"')).toMatchObject({ status: 400, body: scimError(400, 'invalidFilter') });

    // Alice signs in through the IdP with the externalId as NameID: the provisioned account.
    const cookie = await signIn(publicUrl, idp, idpId, externalId);
    const token = await accessToken(publicUrl, cookie);
    expect((await getSelf(publicUrl, token)).body).toMatchObject({
      id: alice.id,
      name: 'Alice',
      handle,
      team: owner.team,
      locale: 'de',
      managed_by: 'scim',
    });
    expect((await getUserRichInfo(publicUrl, owner.token, alice.id)).body).toEqual({
      version: 0,
      fields: [{ type: 'Department', value: 'Sales' }],
    });
    // What SCIM manages, the user cannot change.
    expect(await putSelf(publicUrl, token, { name: 'Mallory' })).toMatchObject({
      status: 403,
      body: wireError(403, 'managed-by-scim'),
    });
    expect(await putSelfHandle(publicUrl, token, { handle: `m-${unique()}` })).toMatchObject({
      status: 403,
      body: wireError(403, 'managed-by-scim'),
    });

    const patched = await scim.patch(alice.id, [
      { op: 'replace', path: 'displayName', value: 'Alice Liddell' },
      { op: 'add', path: `${EXTENSION}:Floor`, value: '3' },
      { op: 'remove', path: `${EXTENSION}:Department` },
      { op: 'replace', path: 'roles', value: ['member'] },
    ]);
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      displayName: 'Alice Liddell',
      roles: ['member'],
      [EXTENSION]: { Floor: '3' },
    });
    expect(patched.body[EXTENSION]).not.toHaveProperty('Department');
    expect((await getSelf(publicUrl, token)).body.name).toBe('Alice Liddell');
    expect(await scim.patch(alice.id, [{ op: 'remove', path: 'userName' }])).toMatchObject({
      status: 400,
      body: scimError(400, 'mutability'),
    });
    expect(
      await scim.patch(alice.id, [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'x' }]),
    ).toMatchObject({
      status: 400,
      body: scimError(400, 'invalidPath'),
    });

    expect((await scim.remove(alice.id)).status).toBe(204);
    expect(await postAccess(publicUrl, undefined, cookie)).toMatchObject({ status: 403 });
    expect(await scim.get(alice.id)).toMatchObject({ status: 404, body: scimError(404) });
    expect((await scim.find(`externalId eq "${externalId}"`)).body.totalResults).toBe(0);
    expect((await scim.remove(alice.id)).status).toBe(204);
  });

  it('invites users without an IdP: they register with the mailed code and keep the provisioned account', async () => {
    const made = await createScimToken(publicUrl, owner.token, {
      description: 'email users',
      password: owner.password,
    });
    const emailScim = scimClient(made.body.token);
    const email = `bob-${unique()}@corp.example`;
    const created = await emailScim.create({ schemas: [USER], userName: `bob-${unique()}`, externalId: email });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      externalId: email,
      displayName: email,
      active: false,
      emails: [{ value: email }],
    });
    expect(await postLogin(publicUrl, { email, password: 'whatever-password' })).toMatchObject({
      status: 403,
    });

    const registered = await postRegister(publicUrl, {
      name: 'Bob',
      email,
      password: 'bobs-password',
      team_code: await invitationCode(publicUrl, email),
    });
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body).toMatchObject({ id: created.body.id, team: owner.team, managed_by: 'scim', name: email });
    expect((await emailScim.get(created.body.id)).body).toMatchObject({ active: true, emails: [{ value: email }] });
    expect((await postLogin(publicUrl, { email, password: 'bobs-password' })).status).toBe(200);

    // Without an IdP the externalId must be an address (or emails must give one).
    expect(
      await emailScim.create({ schemas: [USER], userName: `c-${unique()}`, externalId: 'not-an-address' }),
    ).toMatchObject({
      status: 400,
      body: scimError(400, 'invalidValue'),
    });
  });

  it('refuses what wire refuses, in SCIM errors, creating nothing', async () => {
    expect(await scimClient(undefined).find('userName eq "x"')).toMatchObject({ status: 401, body: scimError(401) });
    expect(await scimClient('bm90IGEgdG9rZW4=').find('userName eq "x"')).toMatchObject({
      status: 401,
      body: scimError(401),
    });
    const handle = `carol-${unique()}`;
    const carol = { schemas: [USER], userName: handle, externalId: `${handle}@corp.example` };
    const refusals: Array<[unknown, number, string]> = [
      [{ ...carol, password: 'secret-password' }, 400, 'invalidValue'],
      [{ ...carol, userName: 'No Spaces Allowed' }, 400, 'invalidValue'],
      [{ schemas: [USER], userName: handle }, 400, 'invalidValue'],
      [{ ...carol, roles: ['owner', 'admin'] }, 400, 'invalidValue'],
      [{ ...carol, roles: ['boss'] }, 400, 'invalidValue'],
      [{ ...carol, preferredLanguage: 'english' }, 400, 'invalidValue'],
      [{ ...carol, [EXTENSION]: { Bio: 'x'.repeat(6000) } }, 413, 'invalidValue'],
      ['not an object', 400, 'invalidSyntax'],
    ];
    for (const [body, status, scimType] of refusals)
      expect(await scim.create(body), JSON.stringify(body).slice(0, 80)).toMatchObject({
        status,
        body: scimError(status, scimType),
      });
    expect((await scim.find(`userName eq "${handle}"`)).body.totalResults).toBe(0);

    const created = await scim.create(carol);
    expect(created.status, created.text).toBe(201);
    expect(await scim.create({ ...carol, userName: `other-${unique()}` })).toMatchObject({
      status: 409,
      body: scimError(409, 'uniqueness'),
    });
    expect(await scim.create({ ...carol, externalId: `x-${unique()}@corp.example` })).toMatchObject({
      status: 409,
      body: scimError(409, 'uniqueness'),
    });

    // Another team's token sees nothing of this team.
    const other = await teamOwner(publicUrl, internalUrl);
    const foreign = await createScimToken(publicUrl, other.token, {
      description: 'x',
      password: other.password,
    });
    const stranger = scimClient(foreign.body.token);
    expect(await stranger.get(created.body.id)).toMatchObject({ status: 404, body: scimError(404) });
    expect((await stranger.find(`userName eq "${handle}"`)).body.totalResults).toBe(0);
    expect((await stranger.remove(created.body.id)).status).toBe(204);
    expect((await scim.get(created.body.id)).status).toBe(200);
  });

  it('replaces a user: suspends and reactivates, re-keys the externalId, and leaves an unchanged user alone', async () => {
    const handle = `dave-${unique()}`;
    const dave = { schemas: [USER], userName: handle, externalId: `${handle}@corp.example`, displayName: 'Dave' };
    const created = (await scim.create(dave)).body;
    const cookie = await signIn(publicUrl, idp, idpId, dave.externalId);

    const same = await scim.replace(created.id, dave);
    expect(same.status, same.text).toBe(200);
    expect(same.body.meta).toEqual(created.meta);

    const suspended = await scim.replace(created.id, { ...dave, active: false });
    expect(suspended.body.active).toBe(false);
    expect((await postAccess(publicUrl, undefined, cookie)).status).toBe(403);
    expect((await scim.replace(created.id, { ...dave, active: true })).body.active).toBe(true);

    const moved = `${handle}@new.example`;
    const rekeyed = await scim.replace(created.id, { ...dave, externalId: moved });
    expect(rekeyed.body).toMatchObject({ id: created.id, externalId: moved });
    expect((await scim.find(`externalId eq "${moved}"`)).body.Resources[0].id).toBe(created.id);
    const token = await accessToken(publicUrl, await signIn(publicUrl, idp, idpId, moved));
    expect((await getSelf(publicUrl, token)).body.id).toBe(created.id);
  });

  it('lets an SSO admin create tokens without a password or second factor, as SSO users have neither', async () => {
    const handle = `frank-${unique()}`;
    const externalId = `${handle}@corp.example`;
    expect((await scim.create({ schemas: [USER], userName: handle, externalId, roles: ['admin'] })).status).toBe(201);
    const snd = `/i/teams/${owner.team}/features/sndFactorPasswordChallenge`;
    expect((await api(internalUrl).patch(snd, { status: 'enabled', lockStatus: 'unlocked' })).status).toBe(200);
    try {
      const token = await accessToken(publicUrl, await signIn(publicUrl, idp, idpId, externalId));
      const made = await createScimToken(publicUrl, token, {
        description: 'by SSO admin',
        idp: idpId,
      });
      expect(made.status, made.text).toBe(200);
      // Nor can they delete the IdP they signed in with.
      expect(await deleteIdp(publicUrl, token, idpId)).toMatchObject({
        status: 409,
        body: wireError(409, 'cannot-delete-own-idp'),
      });
      // The password owner still needs the code.
      expect(
        await createScimToken(publicUrl, owner.token, { description: 'x', password: owner.password }),
      ).toMatchObject({ status: 403, body: wireError(403, 'code-authentication-required') });
    } finally {
      await api(internalUrl).patch(snd, { status: 'disabled', lockStatus: 'unlocked' });
    }
  });

  it('describes itself without a token', async () => {
    const open = scimClient(undefined);
    const config = await open.raw('GET', '/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ patch: { supported: true }, bulk: { supported: false } });
    const schemas = await open.raw('GET', '/Schemas');
    expect(schemas.body.Resources.map((s: any) => s.id)).toContain(USER);
    expect((await open.raw('GET', `/Schemas/${USER}`)).body.name).toBe('User');
    expect(await open.raw('GET', '/Schemas/urn:nothing')).toMatchObject({ status: 404, body: scimError(404) });
    expect((await open.raw('GET', '/ResourceTypes')).body.Resources).toEqual([
      expect.objectContaining({ name: 'User', endpoint: '/Users', schema: USER }),
    ]);
  });
});
