// `POST /sso/finalize-login[/{team}]`: the IdP's answer, posted by the browser. The response is
// read, its assertion's signature checked against the IdP's certificates, it is matched with the
// AuthnRequest it answers (once) and judged; a granted sign-in logs the user in (a new member of
// the IdP's team on their first sign-in) with a persistent cookie.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { sparErrors } from '../../api/errors/spar.js';
import { newCookieHeader } from '../../brig/face.js';
import { database } from '../../db/client.js';
import type { VerdictFormat } from '../../../shared/db/schema-spar.js';
import { idpStore, type IdpRow } from '../idp/idp-store.js';
import { finalizeLoginUrl, serviceProvider } from '../service-provider.js';
import { type AuthnResponse, parseAuthnResponse } from './authn-response.js';
import { deniedReasons, keepAssertionUntil } from './judge.js';
import { samlUser } from './saml-users.js';
import { samlStore } from './saml-store.js';
import { assertionSignatureProblem } from './signature.js';
import { errorPage, verdictResponse } from './verdict.js';

const form = {
  body: {
    required: true,
    content: { 'application/x-www-form-urlencoded': { schema: z.object({ SAMLResponse: z.string() }) } },
  },
};
const errors = [
  sparErrors.badResponseEncoding,
  sparErrors.badResponseXml,
  sparErrors.badResponseSaml,
  sparErrors.badResponseSignature,
  sparErrors.idpNotFound,
  sparErrors.cannotMixApiVersions,
] as const;
const page = {
  description: 'The verdict: a page for the web app, or a redirect (303) for the mobile apps',
  content: { 'text/html': { schema: z.string() } },
};

/** The IdP that issued the response: by issuer for the instance's (v1) URL, by issuer and team for a team's (v2). */
async function idpOf(c: Context<AppEnv>, issuer: string, team: string | undefined): Promise<IdpRow> {
  const all = await idpStore.byIssuer(database(c.env.DB), issuer);
  const candidates = team === undefined ? all : all.filter((i) => i.team === team);
  const idp = candidates.find((i) => i.apiVersion === (team === undefined ? 1 : 2));
  if (idp !== undefined) return idp;
  if (candidates.length > 0) throw new ApiError(sparErrors.cannotMixApiVersions);
  throw new ApiError(sparErrors.idpNotFound, `IdP not found: ${issuer}`);
}

async function verdictOf(c: Context<AppEnv>, idp: IdpRow, r: AuthnResponse): Promise<Response> {
  const db = database(c.env.DB);
  const now = Date.now();
  const inResponseTo = r.bearer?.inResponseTo;
  // An IdP-initiated sign-in answers no request of ours: the client starts one.
  if (inResponseTo === undefined) return c.redirect(`/sso/initiate-login/${idp.id}`, 303);
  const request = await samlStore.takeRequest(db, inResponseTo, now);
  const format: VerdictFormat = request?.verdictFormat ?? { kind: 'web' };
  const deny = (errors: string[]) => verdictResponse(format, { granted: false, label: 'forbidden', errors });
  if (request === undefined || !request.live) return deny([`bad InResponseTo: ${inResponseTo}`]);
  if (request.issuer !== r.issuer) return deny(['the response comes from another IdP than the request went to']);
  const url = finalizeLoginUrl(serviceProvider(c), idp);
  const reasons = deniedReasons(r, { audience: url, recipient: url }, now);
  if (reasons.length > 0) return deny(reasons);
  const keepUntil = keepAssertionUntil(r, now, c.get('config').spar.maxttlAuthresp);
  if (!(await samlStore.takeAssertion(db, r.assertionId, keepUntil, now)))
    return deny([`the assertion ${r.assertionId} was used before`]);
  try {
    const user = await samlUser(c, idp, r.nameId);
    const cookie = await newCookieHeader(c, user.id, { kind: 'persistent' });
    return verdictResponse(format, { granted: true, user: user.id, cookie });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const body = err.body();
    return verdictResponse(format, { granted: false, label: body.label, errors: [body.message] });
  }
}

async function finalize(c: Context<AppEnv>, team: string | undefined): Promise<Response> {
  try {
    const body = await c.req.parseBody();
    const field = body.SAMLResponse;
    const r = parseAuthnResponse(typeof field === 'string' ? field : undefined);
    const idp = await idpOf(c, r.issuer, team);
    const problem = await assertionSignatureProblem(r.doc, r.assertion, idp.certs);
    if (problem !== undefined) throw new ApiError(sparErrors.badResponseSignature, `Bad response: ${problem}`);
    return await verdictOf(c, idp, r);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const body = err.body();
    return errorPage(err.spec.status, body.label, body.message);
  }
}

export const finalizeLogin = endpoint(
  {
    name: 'auth-resp-legacy',
    method: 'post',
    path: '/sso/finalize-login',
    auth: 'none',
    request: form,
    errors,
    responses: { 200: page },
  },
  (c) => finalize(c, undefined),
);

export const finalizeLoginForTeam = endpoint(
  {
    name: 'auth-resp',
    method: 'post',
    path: '/sso/finalize-login/{team}',
    auth: 'none',
    request: { params: z.object({ team: z.uuid() }), ...form },
    errors,
    responses: { 200: page },
  },
  (c) => finalize(c, c.req.valid('param').team),
);
