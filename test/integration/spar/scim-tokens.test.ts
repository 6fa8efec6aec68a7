import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { testIdp } from '../../helpers/saml-idp.js';
import { api, invitedMember, teamOwner, type TeamOwner } from '../../helpers/users.js';
import { postVerificationCodeSend } from '../../helpers/endpoints/brig.js';
import {
  createIdp,
  createScimToken,
  deleteIdp,
  deleteScimToken,
  listScimTokens,
  putScimTokenName,
} from '../../helpers/endpoints/spar.js';

const { publicUrl, internalUrl } = sharedBackend();

const isoDate = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe('spar: SCIM tokens', () => {
  let owner: TeamOwner;

  beforeAll(async () => {
    owner = await teamOwner(publicUrl, internalUrl);
  });

  it('creates named tokens, lists them oldest first, renames and deletes them', async () => {
    const me = api(publicUrl, owner.token);
    const first = await createScimToken(publicUrl, owner.token, {
      description: 'Okta',
      name: 'okta',
      password: owner.password,
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
      info: { team: owner.team, id: expect.any(String), created_at: isoDate, description: 'Okta', name: 'okta' },
    });
    const second = await createScimToken(publicUrl, owner.token, { description: 'unnamed', password: owner.password });
    expect(second.body.info.name).toBe(second.body.info.id);

    expect((await listScimTokens(publicUrl, owner.token)).body).toEqual({
      tokens: [first.body.info, second.body.info],
    });
    // Before v8 tokens had no names.
    const { name: _, ...withoutName } = first.body.info;
    expect((await me.get('/v7/scim/auth-tokens')).body.tokens[0]).toEqual(withoutName);

    const renamed = await putScimTokenName(publicUrl, owner.token, second.body.info.id, { name: 'azure' });
    expect(renamed).toMatchObject({ status: 200, body: [] });
    expect((await me.put(`/v7/scim/auth-tokens/${second.body.info.id}`, { name: 'x' })).status).toBe(404);

    expect((await deleteScimToken(publicUrl, owner.token, { id: first.body.info.id })).status).toBe(204);
    expect((await deleteScimToken(publicUrl, owner.token, { id: first.body.info.id })).status).toBe(204);
    expect((await listScimTokens(publicUrl, owner.token)).body).toEqual({
      tokens: [{ ...second.body.info, name: 'azure' }],
    });
  });

  it('demands the password, and the second factor when the team turns it on', async () => {
    const team = await teamOwner(publicUrl, internalUrl);
    for (const password of [undefined, 'wrong-password'])
      expect(await createScimToken(publicUrl, team.token, { description: 'x', password })).toMatchObject({
        status: 403,
        body: wireError(403, 'access-denied'),
      });
    const snd = `/i/teams/${team.team}/features/sndFactorPasswordChallenge`;
    expect((await api(internalUrl).patch(snd, { status: 'enabled', lockStatus: 'unlocked' })).status).toBe(200);
    expect(await createScimToken(publicUrl, team.token, { description: 'x', password: team.password })).toMatchObject({
      status: 403,
      body: wireError(403, 'code-authentication-required'),
    });
    expect(
      await createScimToken(publicUrl, team.token, {
        description: 'x',
        password: team.password,
        verification_code: '123456',
      }),
    ).toMatchObject({ status: 403, body: wireError(403, 'code-authentication-failed') });
    const send = { action: 'create_scim_token', email: team.email };
    expect((await postVerificationCodeSend(publicUrl, undefined, send)).status).toBe(200);
    const code = (await api(internalUrl).get(`/i/users/${team.id}/verification-code/create_scim_token`)).body;
    const made = await createScimToken(publicUrl, team.token, {
      description: 'x',
      password: team.password,
      verification_code: code,
    });
    expect(made.status, made.text).toBe(200);
    expect((await listScimTokens(publicUrl, team.token)).body.tokens).toHaveLength(1);
  });

  it('is for owners and admins only, up to the configured number of tokens', async () => {
    const team = await teamOwner(publicUrl, internalUrl);
    const member = await invitedMember(publicUrl, team, 'member');
    expect(
      await createScimToken(publicUrl, member.token, { description: 'x', password: member.password }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'insufficient-permissions'),
    });
    expect((await listScimTokens(publicUrl, member.token)).status).toBe(403);
    const admin = await invitedMember(publicUrl, team, 'admin');
    // The shared backend allows 8 tokens a team (spar.maxScimTokens).
    for (let i = 0; i < 8; i++)
      expect(
        (await createScimToken(publicUrl, admin.token, { description: `t${i}`, password: admin.password })).status,
      ).toBe(200);
    expect(await createScimToken(publicUrl, admin.token, { description: 'x', password: admin.password })).toMatchObject(
      {
        status: 403,
        body: wireError(403, 'token-limit-reached'),
      },
    );
    // A member cannot delete the team's tokens either.
    const [t] = (await listScimTokens(publicUrl, admin.token)).body.tokens;
    expect((await deleteScimToken(publicUrl, member.token, { id: t.id })).status).toBe(403);
    expect((await listScimTokens(publicUrl, admin.token)).body.tokens).toHaveLength(8);

    const outsider = await teamOwner(publicUrl, internalUrl);
    expect((await deleteScimToken(publicUrl, outsider.token, { id: t.id })).status).toBe(204);
    expect((await listScimTokens(publicUrl, admin.token)).body.tokens).toHaveLength(8);
  });

  it("ties a token to one of the team's IdPs, and before v8 to the only one", async () => {
    const team = await teamOwner(publicUrl, internalUrl);
    const me = api(publicUrl, team.token);
    expect((await api(internalUrl).put(`/i/teams/${team.team}/features/sso`, { status: 'enabled' })).status).toBe(200);
    const idp = (await createIdp(publicUrl, team.token, { value: (await testIdp()).metadata })).body;
    const tied = await createScimToken(publicUrl, team.token, {
      description: 'x',
      idp: idp.id,
      password: team.password,
    });
    expect(tied.body.info.idp).toBe(idp.id);

    const stranger = await teamOwner(publicUrl, internalUrl);
    expect(
      await createScimToken(publicUrl, stranger.token, {
        description: 'x',
        idp: idp.id,
        password: stranger.password,
      }),
    ).toMatchObject({ status: 404, body: wireError(404, 'not-found') });
    expect((await listScimTokens(publicUrl, stranger.token)).body.tokens).toEqual([]);

    const v7 = await me.post('/v7/scim/auth-tokens', { description: 'old', password: team.password });
    expect(v7.body.info).toEqual({
      team: team.team,
      id: expect.any(String),
      created_at: isoDate,
      idp: idp.id,
      description: 'old',
    });
    // With a token, a v7 client cannot add a second IdP; v8 can, and then v7 cannot pick one.
    const other = (await testIdp()).metadata;
    expect(await me.post('/v7/identity-providers', { value: other })).toMatchObject({
      status: 400,
      body: wireError(400, 'more-than-one-idp'),
    });
    expect((await createIdp(publicUrl, team.token, { value: other })).status).toBe(201);
    expect(await me.post('/v7/scim/auth-tokens', { description: 'old', password: team.password })).toMatchObject({
      status: 400,
      body: wireError(400, 'more-than-one-idp'),
    });
    // Deleting the IdP deletes its tokens.
    expect((await deleteIdp(publicUrl, team.token, idp.id)).status).toBe(204);
    expect((await listScimTokens(publicUrl, team.token)).body.tokens).toEqual([]);
  });
});
