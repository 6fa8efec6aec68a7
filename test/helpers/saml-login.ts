import { expect } from 'vitest';
import { testIdp, type TestIdp } from './saml-idp.js';
import { api, teamOwner, type TeamOwner } from './users.js';
import { postAccess } from './endpoints/brig.js';
import { createIdp } from './endpoints/spar.js';

export interface Started {
  /** The AuthnRequest's ID and its Issuer (the SP's entity id, where the IdP answers). */
  id: string;
  sp: string;
  /** Where the form posts it: the IdP's SingleSignOnService. */
  action: string;
}

/** The browser opening `/sso/initiate-login/{idp}` and reading the AuthnRequest form. */
export async function initiate(publicUrl: string, idp: string, query = ''): Promise<Started> {
  const res = await fetch(new URL(`/sso/initiate-login/${idp}${query}`, publicUrl));
  const html = await res.text();
  expect(res.status, html).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/html');
  const action = /<form action="([^"]+)"/.exec(html)![1]!;
  const request = atob(/name="SAMLRequest" value="([^"]+)"/.exec(html)![1]!);
  return {
    id: /ID="([^"]+)"/.exec(request)![1]!,
    sp: /<saml:Issuer>([^<]+)<\/saml:Issuer>/.exec(request)![1]!,
    action,
  };
}

/** The browser posting the IdP's answer to the SP (the path the SP named, on this backend). */
export async function finalize(publicUrl: string, sp: string, samlResponse: string) {
  const res = await fetch(new URL(new URL(sp).pathname, publicUrl), {
    method: 'POST',
    body: new URLSearchParams({ SAMLResponse: samlResponse }),
    redirect: 'manual',
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    title: /<title>([^<]+)<\/title>/.exec(text)?.[1],
    cookie: /zuid=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0],
    location: res.headers.get('location'),
  };
}

/** A whole sign-in of `nameId` through the IdP; the `zuid` cookie it ends with. */
export async function signIn(publicUrl: string, idp: TestIdp, idpId: string, nameId: string): Promise<string> {
  const started = await initiate(publicUrl, idpId);
  const answer = await idp.respond({ inResponseTo: started.id, recipient: started.sp, audience: started.sp, nameId });
  const done = await finalize(publicUrl, started.sp, answer);
  expect(done.title, done.text).toBe('wire:sso:success');
  return done.cookie!;
}

/** An access token for a cookie, as a client gets one after signing in. */
export async function accessToken(publicUrl: string, cookie: string): Promise<string> {
  const access = await postAccess(publicUrl, undefined, cookie);
  expect(access.status, access.text).toBe(200);
  return access.body.access_token as string;
}

/** A team with sso enabled and a registered (v2) test IdP. */
export async function teamWithIdp(
  publicUrl: string,
  internalUrl: string,
  owner?: TeamOwner,
): Promise<{ owner: TeamOwner; idp: TestIdp; idpId: string }> {
  owner ??= await teamOwner(publicUrl, internalUrl);
  expect((await api(internalUrl).put(`/i/teams/${owner.team}/features/sso`, { status: 'enabled' })).status).toBe(200);
  const idp = await testIdp();
  const created = await createIdp(
    publicUrl,
    owner.token,
    {
      value: idp.metadata,
    },
    { api_version: 'v2' },
  );
  expect(created.status, created.text).toBe(201);
  return { owner, idp, idpId: created.body.id };
}
