import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { testIdp, type TestIdp } from '../../helpers/saml-idp.js';
import { api, invitedMember, teamOwner, type TeamOwner } from '../../helpers/users.js';
import { createIdp, deleteIdp, getIdp, getIdps } from '../../helpers/endpoints/spar.js';

const { publicUrl, internalUrl } = sharedBackend();

/** Posts metadata as raw XML (`application/xml`), as the team settings page does. */
async function postXml(token: string, xml: string, query = '', method = 'POST', path = '/v8/identity-providers') {
  const res = await fetch(new URL(`${path}${query}`, publicUrl), {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml' },
    body: xml,
  });
  const text = await res.text();
  return { status: res.status, text, body: text.startsWith('{') ? JSON.parse(text) : text };
}

const enableSso = async (team: string) =>
  expect((await api(internalUrl).put(`/i/teams/${team}/features/sso`, { status: 'enabled' })).status).toBe(200);

describe('spar: identity providers', () => {
  let owner: TeamOwner;
  let idp: TestIdp;

  beforeAll(async () => {
    owner = await teamOwner(publicUrl, internalUrl);
    idp = await testIdp();
  });

  it('refuses IdPs while the team has sso disabled', async () => {
    expect(await postXml(owner.token, idp.metadata)).toMatchObject({
      status: 403,
      body: wireError(403, 'sso-disabled'),
    });
    expect((await getIdps(publicUrl, owner.token)).body).toEqual({ providers: [] });
  });

  it('registers an IdP from raw metadata and from JSON, lists, reads and shows the raw XML', async () => {
    await enableSso(owner.team);
    const created = await postXml(owner.token, idp.metadata);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      metadata: {
        issuer: idp.entityId,
        requestURI: 'https://idp.test/sso',
        certAuthnResponse: [expect.stringMatching(/^<KeyInfo xmlns="http:\/\/www.w3.org\/2000\/09\/xmldsig#">/)],
      },
      extraInfo: { team: owner.team, apiVersion: 'WireIdPAPIV1', oldIssuers: [], replacedBy: null, handle: 'IdP 1' },
    });

    const other = await testIdp();
    const v2 = await createIdp(
      publicUrl,
      owner.token,
      {
        value: other.metadata,
      },
      { api_version: 'v2', handle: 'corp' },
    );
    expect(v2.status, v2.text).toBe(201);
    expect(v2.body.extraInfo).toMatchObject({ apiVersion: 'WireIdPAPIV2', handle: 'corp' });
    const list = await getIdps(publicUrl, owner.token);
    expect(list.body.providers.map((p: any) => p.id)).toEqual([created.body.id, v2.body.id]);
    expect((await getIdp(publicUrl, owner.token, created.body.id)).body).toEqual(created.body);
    const raw = await fetch(new URL(`/v8/identity-providers/${created.body.id}/raw`, publicUrl), {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(raw.headers.get('content-type')).toContain('application/xml');
    expect(await raw.text()).toBe(idp.metadata);
  });

  it('refuses bad metadata, plain http and an issuer already in use, creating nothing', async () => {
    const before = (await getIdps(publicUrl, owner.token)).body.providers.length;
    const notJson = await fetch(new URL('/v8/identity-providers', publicUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: '{"value": ',
    });
    expect(await notJson.json()).toEqual(wireError(400, 'bad-request'));
    expect(await postXml(owner.token, '<md:EntityDescriptor')).toMatchObject({
      status: 400,
      body: wireError(400, 'invalid-metadata'),
    });
    const noCert = idp.metadata.replace(/<(\w+:)?KeyDescriptor[\s\S]*<\/(\w+:)?KeyDescriptor>/, '');
    expect(await postXml(owner.token, noCert)).toMatchObject({ status: 400, body: wireError(400, 'invalid-metadata') });
    const plain = await testIdp(undefined, 'http://idp.test/sso');
    expect(await postXml(owner.token, plain.metadata)).toMatchObject({
      status: 400,
      body: wireError(400, 'idp-must-be-https'),
    });
    expect(await postXml(owner.token, idp.metadata)).toMatchObject({
      status: 400,
      body: wireError(400, 'idp-already-in-use'),
    });
    // A v1 issuer is the instance's: another team cannot use it either, with any version.
    const stranger = await teamOwner(publicUrl, internalUrl);
    await enableSso(stranger.team);
    expect(await postXml(stranger.token, idp.metadata)).toMatchObject({
      status: 400,
      body: wireError(400, 'idp-already-in-use'),
    });
    expect(await postXml(stranger.token, idp.metadata, '?api_version=v2')).toMatchObject({
      status: 409,
      body: wireError(409, 'cannot-mix-idp-api-verions'),
    });
    expect((await getIdps(publicUrl, owner.token)).body.providers).toHaveLength(before);
  });

  it('lets only the team’s owners and admins see and change its IdPs', async () => {
    const [id] = (await getIdps(publicUrl, owner.token)).body.providers.map((p: any) => p.id);
    const member = await invitedMember(publicUrl, owner, 'member');
    expect(await getIdps(publicUrl, member.token)).toMatchObject({
      status: 403,
      body: wireError(403, 'insufficient-permissions'),
    });
    const admin = await invitedMember(publicUrl, owner, 'admin');
    expect((await getIdp(publicUrl, admin.token, id)).status).toBe(200);
    const stranger = await teamOwner(publicUrl, internalUrl);
    expect(await getIdp(publicUrl, stranger.token, id)).toMatchObject({
      status: 403,
      body: wireError(403, 'insufficient-permissions'),
    });
    expect((await deleteIdp(publicUrl, stranger.token, id)).status).toBe(403);
    expect(await getIdp(publicUrl, owner.token, crypto.randomUUID())).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
  });

  it('replaces metadata in place, or by a new IdP that remembers the old issuer; deletes', async () => {
    const team = await teamOwner(publicUrl, internalUrl);
    await enableSso(team.team);
    const first = (await postXml(team.token, (await testIdp()).metadata)).body;
    const moved = await testIdp();
    const updated = await postXml(
      team.token,
      moved.metadata,
      '?handle=renamed',
      'PUT',
      `/v8/identity-providers/${first.id}`,
    );
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.metadata.issuer).toBe(moved.entityId);
    expect(updated.body.extraInfo).toMatchObject({ oldIssuers: [first.metadata.issuer], handle: 'renamed' });

    const successor = await testIdp();
    const replacing = await postXml(team.token, successor.metadata, `?replaces=${first.id}`);
    expect(replacing.status, replacing.text).toBe(201);
    expect(replacing.body.extraInfo.oldIssuers).toEqual([moved.entityId, first.metadata.issuer]);
    expect((await getIdp(publicUrl, team.token, first.id)).body.extraInfo.replacedBy).toBe(replacing.body.id);

    expect((await deleteIdp(publicUrl, team.token, replacing.body.id)).status).toBe(204);
    expect((await getIdp(publicUrl, team.token, replacing.body.id)).status).toBe(404);
    expect((await getIdp(publicUrl, team.token, first.id)).body.extraInfo.replacedBy).toBeNull();
  });
});
