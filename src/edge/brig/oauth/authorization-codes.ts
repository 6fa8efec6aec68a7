import { z } from '@hono/zod-openapi';
import { toHex } from '../../../shared/hex.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { oauthErrors } from '../../api/errors/oauth.js';
import { jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { redirectUrl } from './oauth-clients.js';
import { sha256Hex } from '../../../shared/keys.js';
import { grantedScope, oauthSettings } from './oauth-context.js';
import { oauthStore } from './oauth-store.js';

const codeRequest = z
  .object({
    client_id: z.uuid(),
    scope: z.string().openapi({ description: 'The scopes asked for, separated by a space' }),
    response_type: z.literal('code'),
    redirect_uri: redirectUrl,
    state: z.string(),
    code_challenge_method: z.literal('S256'),
    code_challenge: z.string().openapi({ description: 'base64url SHA-256 of the code verifier (PKCE)' }),
  })
  .openapi('CreateOAuthAuthorizationCodeRequest');

/** The redirect URI with OAuth's answer in front of its own query (wire's order: code or error, then state). */
function answerUrl(redirect: string, params: Record<string, string>): string {
  const url = new URL(redirect);
  const own = url.search.slice(1);
  const ours = Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  url.search = own === '' ? ours : `${ours}&${own}`;
  return url.toString();
}

const redirected = { headers: z.object({ location: z.string() }) };

/**
 * `POST /oauth/authorization/codes`: the signed-in user grants an application the scopes it asks
 * for. The answer goes where the application waits (201 with `Location` carrying `code` and
 * `state`); a refusal too, as `error=access_denied`, except a redirect URI other than the
 * registered one, which is never followed.
 */
export const createAuthorizationCode = endpoint(
  {
    name: 'create-oauth-auth-code',
    method: 'post',
    path: '/oauth/authorization/codes',
    summary: 'Create an OAuth authorization code',
    request: jsonBody(codeRequest),
    errors: [oauthErrors.redirectUrlMissMatch],
    responses: {
      201: { description: 'Created; Location holds the code', ...redirected },
      403: { description: 'OAuth is disabled; Location holds the error', ...redirected },
      404: { description: 'The client is not found; Location holds the error', ...redirected },
    },
  },
  async (c) => {
    const body = c.req.valid('json');
    const refuse = (status: 403 | 404, description: string) =>
      c.body(null, status, {
        location: answerUrl(body.redirect_uri, {
          error: 'access_denied',
          error_description: description,
          state: body.state,
        }),
      });
    if (!c.get('config').brig.optSettings.setOAuthEnabled) return refuse(403, 'OAuth is not enabled');
    const settings = oauthSettings(c);
    const db = database(c.env.DB);
    const client = await oauthStore.client(db, body.client_id);
    if (client === undefined) return refuse(404, 'The client ID was not found');
    if (client.redirectUrl !== body.redirect_uri) throw new ApiError(oauthErrors.redirectUrlMissMatch);
    const code = toHex(crypto.getRandomValues(new Uint8Array(32)));
    await oauthStore.addCode(db, {
      codeHash: await sha256Hex(code),
      client: client.id,
      user: self(c).user,
      scope: grantedScope(body.scope),
      redirectUri: body.redirect_uri,
      codeChallenge: body.code_challenge,
      expiresAt: Date.now() + settings.codeTtlSeconds * 1000,
    });
    return c.body(null, 201, { location: answerUrl(body.redirect_uri, { code, state: body.state }) });
  },
);
