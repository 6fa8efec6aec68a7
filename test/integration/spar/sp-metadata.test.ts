import * as samlify from 'samlify';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { DELETE } from '../../helpers/config-files.js';
import { wireError } from '../../helpers/http.js';
import { teamWithIdp } from '../../helpers/saml-login.js';
import { api, teamOwner } from '../../helpers/users.js';
import { createScimToken, deleteIdp, getSsoSettings } from '../../helpers/endpoints/spar.js';

const { publicUrl, internalUrl } = sharedBackend();

/** The SP metadata as an IdP reads it (samlify parses it as a service provider's). */
async function spFrom(url: string) {
  const res = await fetch(url);
  const xml = await res.text();
  expect(res.status, xml).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/xml');
  const sp = samlify.ServiceProvider({ metadata: xml });
  return { xml, entityId: sp.entityMeta.getEntityID(), acs: sp.entityMeta.getAssertionConsumerService('post') };
}

/** GET with a Host header of our choosing (fetch will not send one), as another ingress would. */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('spar: the service provider', () => {
  it("publishes SP metadata an IdP can read: per team, and the instance's for v1 IdPs", async () => {
    const team = crypto.randomUUID();
    const perTeam = await spFrom(`${publicUrl}/sso/metadata/${team}`);
    expect(perTeam.entityId).toBe(`http://127.0.0.1:8080/sso/finalize-login/${team}`);
    expect(perTeam.acs).toBe(`http://127.0.0.1:8080/sso/finalize-login/${team}`);
    expect(perTeam.xml).toContain('WantAssertionsSigned="true"');
    const legacy = await spFrom(`${publicUrl}/sso/metadata`);
    expect(legacy.entityId).toBe('http://127.0.0.1:8080/sso/finalize-login');
    expect((await fetch(`${publicUrl}/sso/metadata/not-a-team`)).status).toBe(400);
  });

  it('keeps a default SSO code the operator sets to an existing IdP, until that IdP goes', async () => {
    const { owner, idpId } = await teamWithIdp(publicUrl, internalUrl);
    expect(await api(internalUrl).put('/i/sso/settings', { default_sso_code: crypto.randomUUID() })).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
    expect((await api(internalUrl).put('/i/sso/settings', { default_sso_code: idpId })).status).toBe(200);
    expect((await getSsoSettings(publicUrl, undefined)).body).toEqual({ default_sso_code: idpId });
    // Not on the public ingress.
    expect((await api(publicUrl).put('/i/sso/settings', { default_sso_code: null })).status).toBe(404);
    expect((await deleteIdp(publicUrl, owner.token, idpId)).status).toBe(204);
    expect((await api(publicUrl).get('/sso/settings')).body).toEqual({ default_sso_code: null });
  });

  describe('with a service provider per domain (domainConfigs, by Z-Host)', () => {
    let b: TestBackend;

    beforeAll(async () => {
      b = await startEditedBackend([
        ['spar.yaml', ['saml'], DELETE],
        [
          'spar.yaml',
          ['domainConfigs'],
          {
            // The chart's spelling and the spar file's, side by side.
            '127.0.0.1': { appUri: 'https://app.a.example/', ssoUri: 'https://nginz.a.example/sso' },
            localhost: {
              spAppUri: 'https://app.b.example/',
              spSsoUri: 'https://nginz.b.example/sso',
              scimBaseUri: 'https://nginz.b.example/scim/v2',
              contacts: [{ type: 'ContactTechnical', company: 'B Corp', email: 'it@b.example' }],
            },
          },
        ],
      ]);
    });
    afterAll(async () => b?.stop());

    it('answers as the domain the request came in on, and refuses an unknown one', async () => {
      const team = crypto.randomUUID();
      const a = await spFrom(`${b.publicUrl}/sso/metadata/${team}`);
      expect(a.entityId).toBe(`https://nginz.a.example/sso/finalize-login/${team}`);
      const viaB = await spFrom(`${b.publicUrl.replace('127.0.0.1', 'localhost')}/sso/metadata/${team}`);
      expect(viaB.entityId).toBe(`https://nginz.b.example/sso/finalize-login/${team}`);
      expect(viaB.xml).toContain('<md:ContactPerson contactType="technical"><md:Company>B Corp</md:Company>');
      expect(viaB.xml).toContain('<md:EmailAddress>mailto:it@b.example</md:EmailAddress>');
      const unknown = await getWithHost(`${b.publicUrl}/sso/metadata/${team}`, 'nginz.c.example');
      expect(unknown.status).toBe(404);
      expect(JSON.parse(unknown.body)).toEqual({ code: 404, label: 'not-found', message: 'Could not find SP.' });
    });

    it("places SCIM resources under the domain's SCIM base URI", async () => {
      const viaB = b.publicUrl.replace('127.0.0.1', 'localhost');
      const owner = await teamOwner(viaB, b.internalUrl);
      const token = await createScimToken(viaB, owner.token, {
        description: 'b',
        password: owner.password,
      });
      const handle = `erin-${crypto.randomUUID().slice(0, 8)}`;
      const created = await api(viaB).post(
        '/scim/v2/Users',
        {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: handle,
          externalId: `${handle}@b.example`,
        },
        { authorization: `Bearer ${token.body.token}` },
      );
      expect(created.status, created.text).toBe(201);
      expect(created.body.meta.location).toBe(`https://nginz.b.example/scim/v2/Users/${created.body.id}`);
    });
  });
});
