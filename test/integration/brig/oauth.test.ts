import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { call, postJson, wireError } from '../../helpers/http.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import {
  getOAuthApplications,
  getOAuthClient,
  getSelf,
  getSelfClients,
  postOAuthCode,
  putSelf,
} from '../../helpers/endpoints/brig.js';
import { getFeatureConfigs, postConversation } from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();
const REDIRECT = 'https://app.example.com/oauth/callback';
const insecure = { [oauth.allowInsecureRequests]: true };

async function registerApp(name = 'Calendar App', redirect = REDIRECT): Promise<string> {
  const r = await postJson(internalUrl, '/i/oauth/clients', { application_name: name, redirect_url: redirect });
  expect(r.status, r.text).toBe(200);
  expect(r.body.client_secret).toMatch(/^[0-9a-f]{64}$/);
  return r.body.client_id as string;
}

/** The application's side of the flow, done by oauth4webapi (RFC 6749 + PKCE, RFC 7636). */
function application(clientId: string) {
  const as: oauth.AuthorizationServer = {
    issuer: 'https://example.com',
    token_endpoint: `${publicUrl}/v8/oauth/token`,
  };
  const client: oauth.Client = { client_id: clientId };
  return {
    /** The user (signed in to the backend) grants the scopes; the app exchanges the code for tokens. */
    async authorize(user: TestUser, scope: string): Promise<oauth.TokenEndpointResponse> {
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const granted = await postOAuthCode(publicUrl, user.token, {
        client_id: clientId,
        scope,
        response_type: 'code',
        redirect_uri: REDIRECT,
        state,
        code_challenge_method: 'S256',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      });
      expect(granted.status, granted.text).toBe(201);
      const params = oauth.validateAuthResponse(as, client, new URL(granted.headers.get('location')!), state);
      const res = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        params,
        REDIRECT,
        verifier,
        insecure,
      );
      return oauth.processAuthorizationCodeResponse(as, client, res);
    },
    async refresh(refreshToken: string): Promise<oauth.TokenEndpointResponse> {
      const res = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure);
      return oauth.processRefreshTokenResponse(as, client, res);
    },
    /** The raw token endpoint reply to a refresh (for refusals). */
    refreshRaw: (refreshToken: string) =>
      call(publicUrl, '/v8/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: clientId,
          refresh_token: refreshToken,
        }).toString(),
      }),
  };
}

describe('brig: OAuth for third-party applications', () => {
  let user: TestUser;
  let clientId: string;
  beforeAll(async () => {
    user = await createUser(publicUrl, internalUrl, { name: 'Olivia' });
    clientId = await registerApp();
  });

  it('shows a registered application to users, and lets operators change it', async () => {
    expect((await getOAuthClient(publicUrl, user.token, clientId)).body).toEqual({
      client_id: clientId,
      application_name: 'Calendar App',
      redirect_url: REDIRECT,
    });
    const other = await registerApp('Renamed later');
    const put = await call(internalUrl, `/i/oauth/clients/${other}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ application_name: 'Renamed app', redirect_url: 'https://other.example.com/cb' }),
    });
    expect(put.body).toEqual({
      client_id: other,
      application_name: 'Renamed app',
      redirect_url: 'https://other.example.com/cb',
    });
    expect((await call(internalUrl, `/i/oauth/clients/${other}`, { method: 'DELETE' })).body).toEqual([]);
    expect(await getOAuthClient(publicUrl, user.token, other)).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
  });

  it('grants a code with PKCE, and the code buys a signed access token for the scopes', async () => {
    const tokens = await application(clientId).authorize(user, 'read:self read:feature_configs');
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(900);
    expect(decodeProtectedHeader(tokens.access_token)).toEqual({ alg: 'EdDSA' });
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({
      iss: 'example.com',
      aud: 'example.com',
      sub: user.id,
      scope: 'read:feature_configs read:self',
    });
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(decodeJwt(tokens.refresh_token!)).toEqual({ sub: expect.any(String) });
  });

  it('accepts the access token where its scopes allow, and nowhere else', async () => {
    const { access_token } = await application(clientId).authorize(user, 'read:self');
    expect(await getSelf(publicUrl, access_token)).toMatchObject({
      status: 200,
      body: { id: user.id, name: 'Olivia' },
    });
    // read:self does not write, and other scopes' routes refuse it
    expect(await putSelf(publicUrl, access_token, { name: 'Mallory' })).toMatchObject({
      status: 403,
      body: wireError(403, 'forbidden'),
    });
    expect(await getFeatureConfigs(publicUrl, access_token)).toMatchObject({
      status: 403,
      body: wireError(403, 'forbidden'),
    });
    // where no scope is named, an OAuth token is no token at all
    expect((await getSelfClients(publicUrl, access_token)).status).toBe(401);
    const [h, p] = access_token.split('.');
    expect((await getSelf(publicUrl, `${h}.${p}.${'A'.repeat(86)}`)).status).toBe(401);
  });

  it('lets read:feature_configs read the features', async () => {
    const { access_token } = await application(clientId).authorize(user, 'read:feature_configs');
    const r = await getFeatureConfigs(publicUrl, access_token);
    expect(r.status, r.text).toBe(200);
    expect(r.body.conferenceCalling.status).toBe('enabled');
  });

  it('lets write:conversations create a conversation', async () => {
    const { access_token } = await application(clientId).authorize(user, 'write:conversations');
    const r = await postConversation(publicUrl, access_token, { name: 'Planned', qualified_users: [] });
    expect(r.status, r.text).toBe(201);
    expect(r.body.members.self.id).toBe(user.id);
  });

  it('grants no scope when one asked for is unknown', async () => {
    const { access_token } = await application(clientId).authorize(user, 'read:self fly:away');
    expect(decodeJwt(access_token).scope).toBe('');
    expect((await getSelf(publicUrl, access_token)).status).toBe(403);
  });

  it('uses a code up at its first exchange, even a failed one (wrong verifier: invalid_grant)', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const granted = await postOAuthCode(publicUrl, user.token, {
      client_id: clientId,
      scope: 'read:self',
      response_type: 'code',
      redirect_uri: REDIRECT,
      state: 's',
      code_challenge_method: 'S256',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    });
    const code = new URL(granted.headers.get('location')!).searchParams.get('code')!;
    const exchange = (code_verifier: string) =>
      call(publicUrl, '/v8/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: clientId,
          code,
          code_verifier,
          redirect_uri: REDIRECT,
        }).toString(),
      });
    expect(await exchange(oauth.generateRandomCodeVerifier())).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid_grant'),
    });
    expect(await exchange(verifier)).toMatchObject({ status: 404, body: wireError(404, 'not-found') });
  });

  it('answers at the redirect URI when the client is unknown, never at another redirect URI', async () => {
    const ask = (client_id: string, redirect_uri: string) =>
      postOAuthCode(publicUrl, user.token, {
        client_id,
        scope: 'read:self',
        response_type: 'code',
        redirect_uri,
        state: 'xyz',
        code_challenge_method: 'S256',
        code_challenge: 'G7CWLBqYDT8doT_oEIN3un_QwZWYKHmOqG91nwNzITc',
      });
    const unknown = await ask(crypto.randomUUID(), REDIRECT);
    expect(unknown.status).toBe(404);
    const location = new URL(unknown.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The client ID was not found',
      state: 'xyz',
    });
    const elsewhere = await ask(clientId, 'https://evil.example.com/cb');
    expect(elsewhere).toMatchObject({ status: 400, body: wireError(400, 'redirect-url-miss-match') });
    expect(elsewhere.headers.get('location')).toBeNull();
  });

  it('rotates the refresh token at each refresh', async () => {
    const app = application(clientId);
    const first = await app.authorize(user, 'read:self');
    const second = await app.refresh(first.refresh_token!);
    expect(decodeJwt(second.access_token).scope).toBe('read:self');
    expect(await app.refreshRaw(first.refresh_token!)).toMatchObject({
      status: 403,
      body: wireError(403, 'forbidden'),
    });
    expect((await app.refresh(second.refresh_token!)).access_token).toBeTypeOf('string');
  });

  it('lists sessions per application; one ends with the password, and its refresh token with it', async () => {
    const other = await createUser(publicUrl, internalUrl);
    const app = application(clientId);
    const [one, two] = [await app.authorize(other, 'read:self'), await app.authorize(other, 'read:self')];
    const apps = await getOAuthApplications(publicUrl, other.token);
    expect(apps.body).toEqual([
      { id: clientId, name: 'Calendar App', sessions: [expect.any(Object), expect.any(Object)] },
    ]);
    const rid = decodeJwt(one.refresh_token!).sub!;
    expect(apps.body[0].sessions.map((s: { refresh_token_id: string }) => s.refresh_token_id)).toContain(rid);
    const end = (password: string) =>
      api(publicUrl, other.token).del(`/v8/oauth/applications/${clientId}/sessions/${rid}`, { password });
    expect(await end('wrong-password')).toMatchObject({ status: 403, body: wireError(403, 'access-denied') });
    expect(await end(other.password)).toMatchObject({ status: 200, body: [] });
    expect((await app.refreshRaw(one.refresh_token!)).status).toBe(403);
    expect((await app.refresh(two.refresh_token!)).access_token).toBeTypeOf('string');
    // revoking the application's access ends the rest
    const revoke = await api(publicUrl, other.token).del(`/v8/oauth/applications/${clientId}/sessions`, {
      password: other.password,
    });
    expect(revoke.status, revoke.text).toBe(204);
    expect((await getOAuthApplications(publicUrl, other.token)).body).toEqual([]);
  });

  it('keeps at most 10 live refresh tokens per user, dropping the oldest', async () => {
    const other = await createUser(publicUrl, internalUrl);
    const apps = [application(clientId), application(await registerApp('Second App'))];
    const sessions: oauth.TokenEndpointResponse[] = [];
    for (let i = 0; i < 11; i++) sessions.push(await apps[i % 2]!.authorize(other, 'read:self'));
    const listed = (await getOAuthApplications(publicUrl, other.token)).body as Array<{
      sessions: unknown[];
    }>;
    expect(listed.flatMap((a) => a.sessions)).toHaveLength(10);
    expect((await apps[0]!.refreshRaw(sessions[0]!.refresh_token!)).status).toBe(403);
    expect((await apps[0]!.refresh(sessions[2]!.refresh_token!)).access_token).toBeTypeOf('string');
  });

  it('lets an application revoke its own refresh token', async () => {
    const app = application(clientId);
    const { refresh_token } = await app.authorize(user, 'read:self');
    const revoke = (client_id: string) => postJson(publicUrl, '/v8/oauth/revoke', { client_id, refresh_token });
    expect(await revoke(crypto.randomUUID())).toMatchObject({ status: 403, body: wireError(403, 'forbidden') });
    expect(await revoke(clientId)).toMatchObject({ status: 200, body: [] });
    expect((await app.refreshRaw(refresh_token!)).status).toBe(403);
  });
});

describe('brig: OAuth switched off (setOAuthEnabled: false)', () => {
  let b: TestBackend | undefined;
  afterAll(async () => b?.stop());

  it('registers no application and grants nothing, answering at the redirect URI', async () => {
    b = await startEditedBackend([['brig.yaml', ['optSettings', 'setOAuthEnabled'], false]]);
    expect(
      await postJson(b.internalUrl, '/i/oauth/clients', { application_name: 'Calendar App', redirect_url: REDIRECT }),
    ).toMatchObject({ status: 403, body: wireError(403, 'forbidden') });
    const owner = await createUser(b.publicUrl, b.internalUrl);
    const asked = await postOAuthCode(b.publicUrl, owner.token, {
      client_id: crypto.randomUUID(),
      scope: 'read:self',
      response_type: 'code',
      redirect_uri: REDIRECT,
      state: 'st',
      code_challenge_method: 'S256',
      code_challenge: 'G7CWLBqYDT8doT_oEIN3un_QwZWYKHmOqG91nwNzITc',
    });
    expect(asked.status).toBe(403);
    expect(Object.fromEntries(new URL(asked.headers.get('location')!).searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'OAuth is not enabled',
      state: 'st',
    });
    const token = await call(b.publicUrl, '/v8/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: crypto.randomUUID(),
        refresh_token: 'x',
      }).toString(),
    });
    expect(token).toMatchObject({ status: 403, body: wireError(403, 'forbidden') });
  });
});
