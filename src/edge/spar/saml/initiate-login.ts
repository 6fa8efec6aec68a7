// `GET /sso/initiate-login/{idp}`: the AuthnRequest for an IdP, as a page whose form posts it to
// the IdP (the HTTP-POST binding). The request's id is kept with the IdP's issuer and the way the
// verdict is to be shown (a page for the web app, or the mobile app's two redirect URLs).
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { sparErrors } from '../../api/errors/spar.js';
import { database } from '../../db/client.js';
import type { VerdictFormat } from '../../../shared/db/schema-spar.js';
import { idpStore, type IdpRow } from '../idp/idp-store.js';
import { finalizeLoginUrl, serviceProvider } from '../service-provider.js';
import { escapeXml, NS } from '../xml.js';
import { samlStore } from './saml-store.js';

const REDIRECT_MAX = 140;
const params = z.object({ idp: z.uuid() });
const query = z.object({ success_redirect: z.string().optional(), error_redirect: z.string().optional() });
const errors = [
  sparErrors.idpNotFound,
  sparErrors.spNotFound,
  sparErrors.needBothRedirectUrls,
  sparErrors.invalidSchema,
  sparErrors.urlTooLong,
] as const;

function redirectUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ApiError(sparErrors.invalidSchema);
  }
  if (!url.protocol.startsWith('wire')) throw new ApiError(sparErrors.invalidSchema);
  if (text.length > REDIRECT_MAX) throw new ApiError(sparErrors.urlTooLong);
  return text;
}

/** The verdict's format from the query: both redirects (mobile) or neither (web). */
function verdictFormat(q: z.infer<typeof query>): VerdictFormat {
  if (q.success_redirect === undefined && q.error_redirect === undefined) return { kind: 'web' };
  if (q.success_redirect === undefined || q.error_redirect === undefined)
    throw new ApiError(sparErrors.needBothRedirectUrls);
  return { kind: 'mobile', success: redirectUrl(q.success_redirect), error: redirectUrl(q.error_redirect) };
}

async function idpOf(c: Context<AppEnv>, id: string): Promise<IdpRow> {
  const idp = await idpStore.byId(database(c.env.DB), id);
  if (idp === undefined) throw new ApiError(sparErrors.idpNotFound);
  return idp;
}

function authnRequestXml(id: string, issuer: string, now: Date): string {
  return (
    `<samlp:AuthnRequest xmlns:samlp="${NS.samlp}" xmlns:saml="${NS.saml}" ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${escapeXml(issuer)}</saml:Issuer>` +
    '<samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified" AllowCreate="true"/>' +
    '</samlp:AuthnRequest>'
  );
}

/** The page that posts the request to the IdP (and a button where scripts do not run). */
function formPage(action: string, request: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">' +
    '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en"><body onload="document.forms[0].submit()">' +
    '<noscript><p><strong>Note:</strong>Since your browser does not support JavaScript, you must press the Continue button once to proceed.</p></noscript>' +
    `<form action="${escapeXml(action)}" method="post" accept-charset="utf-8">` +
    `<input type="hidden" name="SAMLRequest" value="${btoa(request)}"/>` +
    '<noscript><input type="submit" value="Continue"/></noscript></form></body></html>'
  );
}

export const initiateLogin = endpoint(
  {
    name: 'auth-req',
    method: 'get',
    path: '/sso/initiate-login/{idp}',
    auth: 'none',
    request: { params, query },
    errors,
    responses: {
      200: {
        description: 'A page posting the AuthnRequest to the IdP',
        content: { 'text/html': { schema: z.string() } },
      },
    },
  },
  async (c) => {
    const format = verdictFormat(c.req.valid('query'));
    const idp = await idpOf(c, c.req.valid('param').idp);
    // HEAD (served by this route) only checks the IdP and the redirects.
    if (c.req.method === 'HEAD') return c.body(null, 200, { 'content-type': 'text/plain;charset=utf-8' });
    const sp = serviceProvider(c);
    const id = `_${crypto.randomUUID()}`;
    const now = new Date();
    const db = database(c.env.DB);
    const ttl = c.get('config').spar.maxttlAuthreq * 1000;
    await samlStore.addRequest(db, id, idp.issuer, format, now.getTime() + ttl, now.getTime());
    const request = authnRequestXml(id, finalizeLoginUrl(sp, idp), now);
    return c.body(formPage(idp.requestUri, request), 200, {
      'content-type': 'text/html',
      'cache-control': 'no-cache, no-store',
    });
  },
);
