import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../helpers/backend.js';
import { call, wireError } from '../helpers/http.js';

const { publicUrl } = sharedBackend();

describe('generated API documentation', () => {
  it('has one OpenAPI document per version, generated from the routes in range', async () => {
    const v2 = await call(publicUrl, '/v2/api/swagger.json');
    const v8 = await call(publicUrl, '/v8/api/swagger.json');
    expect(v8.body.openapi).toBe('3.0.0');
    expect(v8.body.servers).toEqual([{ url: '/v8' }]);
    expect(Object.keys(v8.body.paths)).toEqual(
      expect.arrayContaining(['/api-version', '/system/settings/unauthorized']),
    );
    expect(Object.keys(v2.body.paths)).toContain('/api-version');
    expect(Object.keys(v2.body.paths)).not.toContain('/system/settings/unauthorized');
    expect(v8.body.paths['/api-version'].get.operationId).toBe('get-version');
    expect(v8.body.components.schemas.VersionInfo.required).toEqual([
      'supported',
      'development',
      'federation',
      'domain',
    ]);
  });

  it("documents spar's routes under the contract's operationIds, v7 shapes before v8", async () => {
    const v8 = (await call(publicUrl, '/v8/api/swagger.json')).body.paths;
    const ops: Array<[string, string, string]> = [
      ['/identity-providers', 'get', 'idp-get-all'],
      ['/identity-providers', 'post', 'idp-create'],
      ['/identity-providers/{id}', 'put', 'idp-update'],
      ['/identity-providers/{id}/raw', 'get', 'idp-get-raw'],
      ['/scim/auth-tokens', 'post', 'auth-tokens-create'],
      ['/scim/auth-tokens', 'get', 'auth-tokens-list'],
      ['/scim/auth-tokens', 'delete', 'auth-tokens-delete'],
      ['/scim/auth-tokens/{id}', 'put', 'auth-tokens-put-name'],
      ['/sso/initiate-login/{idp}', 'get', 'auth-req'],
      ['/sso/finalize-login/{team}', 'post', 'auth-resp'],
      ['/sso/metadata/{team}', 'get', 'sso-team-metadata'],
      ['/sso/settings', 'get', 'sso-settings'],
    ];
    for (const [path, method, id] of ops) expect(v8[path]?.[method]?.operationId, `${method} ${path}`).toBe(id);
    const v7 = (await call(publicUrl, '/v7/api/swagger.json')).body.paths;
    expect(v7['/scim/auth-tokens'].post.operationId).toBe('auth-tokens-create@v7');
    expect(v7['/scim/auth-tokens/{id}']).toBeUndefined();
    // SCIM itself is served, not documented (as in wire).
    expect(Object.keys(v8).filter((p) => p.startsWith('/scim/v2'))).toEqual([]);
  });

  it("documents OAuth, end-to-end identity, calling and domain registration under the contract's operationIds", async () => {
    const v8 = (await call(publicUrl, '/v8/api/swagger.json')).body.paths;
    const ops: Array<[string, string, string]> = [
      ['/calls/config/v2', 'get', 'get-calls-config-v2'],
      ['/clients/{cid}/access-token', 'post', 'create-access-token'],
      ['/clients/{client}/nonce', 'get', 'get-nonce'],
      ['/domain-verification/{domain}/authorize-team', 'post', 'domain-verification-authorize-team'],
      ['/domain-verification/{domain}/backend', 'post', 'update-domain-redirect'],
      ['/domain-verification/{domain}/challenges', 'post', 'domain-verification-challenge'],
      ['/domain-verification/{domain}/challenges/{challengeId}', 'post', 'verify-challenge'],
      ['/domain-verification/{domain}/team', 'post', 'update-team-invite'],
      ['/domain-verification/{domain}/team/challenges/{challengeId}', 'post', 'verify-challenge-team'],
      ['/get-domain-registration', 'post', 'get-domain-registration'],
      ['/oauth/applications', 'get', 'get-oauth-applications'],
      ['/oauth/applications/{OAuthClientId}/sessions', 'delete', 'revoke-oauth-account-access'],
      ['/oauth/applications/{OAuthClientId}/sessions/{RefreshTokenId}', 'delete', 'delete-oauth-refresh-token'],
      ['/oauth/authorization/codes', 'post', 'create-oauth-auth-code'],
      ['/oauth/clients/{OAuthClientId}', 'get', 'get-oauth-client'],
      ['/oauth/revoke', 'post', 'revoke-oauth-refresh-token'],
      ['/oauth/token', 'post', 'create-oauth-access-token'],
      ['/teams/{teamId}/registered-domains', 'get', 'get-all-registered-domains'],
      ['/teams/{teamId}/registered-domains/{domain}', 'delete', 'delete-registered-domain'],
    ];
    for (const [path, method, id] of ops) expect(v8[path]?.[method]?.operationId, `${method} ${path}`).toBe(id);
    // the first calling configuration is gone from v8 on, as in the contract
    expect(v8['/calls/config']).toBeUndefined();
    const v7 = (await call(publicUrl, '/v7/api/swagger.json')).body.paths;
    expect(v7['/calls/config']?.get?.operationId).toBe('get-calls-config');
  });

  it('serves the development version document although v9 is disabled', async () => {
    expect((await call(publicUrl, '/v9/api/swagger.json')).status).toBe(200);
    expect((await call(publicUrl, '/v10/api/swagger.json')).body).toEqual(wireError(404, 'unsupported-version'));
  });

  it("documents native push tokens under the contract's operationIds", async () => {
    const v8 = (await call(publicUrl, '/v8/api/swagger.json')).body.paths;
    expect(v8['/push/tokens'].post.operationId).toBe('register-push-token');
    expect(v8['/push/tokens'].get.operationId).toBe('get-push-tokens');
    expect(v8['/push/tokens/{pid}'].delete.operationId).toBe('delete-push-token');
    expect(Object.keys(v8['/push/tokens'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '404', '413']),
    );
  });

  it('documents the messaging additions with their operationIds, v9 ones only from v9', async () => {
    const v8 = (await call(publicUrl, '/v8/api/swagger.json')).body;
    const v9 = (await call(publicUrl, '/v9/api/swagger.json')).body;
    const common: Array<[string, string, string]> = [
      ['/broadcast/otr/messages', 'post', 'post-otr-broadcast-unqualified'],
      ['/broadcast/proteus/messages', 'post', 'post-proteus-broadcast'],
      ['/conversations/{cnv_domain}/{cnv}/add-permission', 'put', 'update-channel-add-permission'],
      ['/clients/{client}/capabilities', 'get', 'get-client-capabilities'],
    ];
    const v9Only: Array<[string, string, string]> = [
      ['/conversations/{cnv_domain}/{cnv}/self', 'get', 'get-conversation-self'],
      ['/time', 'get', 'get-server-time'],
    ];
    for (const [path, method, id] of common) {
      expect(v8.paths[path]?.[method]?.operationId, path).toBe(id);
      expect(v9.paths[path]?.[method]?.operationId, path).toBe(id);
    }
    for (const [path, method, id] of v9Only) {
      expect(v9.paths[path]?.[method]?.operationId, path).toBe(id);
      expect(v8.paths[path]?.[method], path).toBeUndefined();
    }
    const v7 = (await call(publicUrl, '/v7/api/swagger.json')).body;
    expect(v7.paths['/clients/{client}/capabilities'].get.operationId).toBe('get-client-capabilities@v7');
    const v6 = (await call(publicUrl, '/v6/api/swagger.json')).body;
    expect(v6.paths['/clients/{client}/capabilities'].get.operationId).toBe('get-client-capabilities@v6');
    // The unqualified broadcast takes JSON or protobuf, and its body is required (as declared, though served optional).
    const body = v8.paths['/broadcast/otr/messages'].post.requestBody;
    expect(body.required).toBe(true);
    expect(Object.keys(body.content)).toEqual(['application/json', 'application/x-protobuf']);
    expect(Object.keys(v8.paths['/broadcast/otr/messages'].post.responses)).toEqual(
      expect.arrayContaining(['201', '412', '400', '404']),
    );
    expect(Object.keys(v8.paths['/conversations/{cnv_domain}/{cnv}/add-permission'].put.responses)).toEqual(
      expect.arrayContaining(['200', '204', '403', '404']),
    );
  });

  it('documents the MLS conversation routes under the contract’s operationIds, per version', async () => {
    const doc = async (v: number) => (await call(publicUrl, `/v${v}/api/swagger.json`)).body.paths;
    const [v5, v6, v8, v9] = [await doc(5), await doc(6), await doc(8), await doc(9)];
    for (const paths of [v8, v9]) {
      expect(paths['/conversations/mls-self'].get.operationId).toBe('get-mls-self-conversation');
      expect(paths['/conversations/{cnv_domain}/{cnv}/groupinfo'].get.operationId).toBe('get-group-info');
      expect(paths['/one2one-conversations/{usr_domain}/{usr}'].get.operationId).toBe(
        'get-one-to-one-mls-conversation',
      );
      expect(paths['/conversations/one2one/{usr_domain}/{usr}']).toBeUndefined();
    }
    const groupInfo = v8['/conversations/{cnv_domain}/{cnv}/groupinfo'].get.responses;
    expect(Object.keys(groupInfo['200'].content)).toEqual(['message/mls']);
    expect(groupInfo['404'].description).toMatch(/mls-missing-group-info/);
    expect(v6['/conversations/one2one/{usr_domain}/{usr}'].get.operationId).toBe('get-one-to-one-mls-conversation@v6');
    expect(v5['/conversations/one2one/{usr_domain}/{usr}'].get.operationId).toBe('get-one-to-one-mls-conversation@v5');
    expect(v5['/conversations/mls-self'].get.operationId).toBe('get-mls-self-conversation@v5');
    expect(v5['/conversations/{cnv_domain}/{cnv}/groupinfo'].get.operationId).toBe('get-group-info');
  });

  it('documents internal routes and their declared errors', async () => {
    const doc = await call(publicUrl, '/v8/api-internal/swagger.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/i/status', '/i/federation/remotes']));
    const put = doc.body.paths['/i/federation/remotes/{domain}'].put;
    expect(put.responses['404'].description).toMatch(/federation-remote-not-found/);
    expect(put.responses['409'].description).toMatch(/federation-remote-diverging-config/);
  });

  it('lists brig’s email and rich info operations under their operationIds', async () => {
    const pub = (await call(publicUrl, '/v8/api/swagger.json')).body;
    expect(pub.paths['/self/email'].delete.operationId).toBe('remove-email');
    expect(pub.paths['/users/{uid}/email'].put.operationId).toBe('update-user-email');
    expect(pub.paths['/users/{uid}/rich-info'].get.operationId).toBe('get-rich-info');
    const internal = (await call(publicUrl, '/v8/api-internal/swagger.json')).body;
    expect(internal.paths['/i/users/{uid}/rich-info'].put.operationId).toBe('iPutRichInfo');
    expect(internal.paths['/i/users/{uid}/rich-info'].put.responses['413'].description).toMatch(/too-large-rich-info/);
  });

  it('has swagger UIs and a table of contents', async () => {
    const ui = await call(publicUrl, '/v5/api/swagger-ui');
    expect(ui.headers.get('content-type')).toMatch(/text\/html/);
    expect(ui.text).toContain('/v5/api/swagger.json');
    expect((await call(publicUrl, '/v5/api-internal/swagger-ui')).text).toContain('/v5/api-internal/swagger.json');
    const toc = await call(publicUrl, '/api/swagger-ui');
    expect(toc.text).toContain('href="/v9/api/swagger-ui"');
    expect((await call(publicUrl, '/api/swagger.json')).body.info.version).toBe('v0');
  });

  it('serves the UI script and stylesheet itself, so the pages work offline', async () => {
    for (const page of ['/v8/api/swagger-ui', '/v8/api-internal/swagger-ui']) {
      const html = (await call(publicUrl, page)).text;
      const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(refs).toEqual(['/api/swagger-ui-dist/swagger-ui.css', '/api/swagger-ui-dist/swagger-ui-bundle.js']);
    }
    const script = await call(publicUrl, '/api/swagger-ui-dist/swagger-ui-bundle.js');
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.text).toContain('SwaggerUIBundle');
    const css = await call(publicUrl, '/api/swagger-ui-dist/swagger-ui.css');
    expect(css.headers.get('content-type')).toMatch(/text\/css/);
    expect(css.text).toContain('.swagger-ui');
  });

  it('serves the event notification schemas as JSON', async () => {
    const r = await call(publicUrl, '/api/event-notification-schemas');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
  });
});
