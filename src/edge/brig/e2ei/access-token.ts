import { z } from '@hono/zod-openapi';
import { calculateJwkThumbprint, importJWK, SignJWT, type JWK } from 'jose';
import { base64url } from '../../../shared/keys.js';
import { clientIdUri } from '../../../shared/mls/x509-identity.js';
import { uuidToBytes } from '../../../shared/uuid.js';
import { fromConfigFile } from '../../api/config-files.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { e2eiErrors } from '../../api/errors/e2ei.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { userStore } from '../users/user-store.js';
import { verifyDpopProof } from './dpop-proof.js';
import { nonceStore } from './nonce-store.js';
import { deps } from '../../api/deps.js';

const clientHex = z.string().regex(/^[0-9a-fA-F]{1,16}$/);
const normalClient = (cid: string) => BigInt(`0x${cid}`).toString(16);

const nonceHeaders = {
  headers: z.object({ 'Replay-Nonce': z.string(), 'Cache-Control': z.string() }),
};

/**
 * A fresh nonce for the client's next DPoP proof, in `Replay-Nonce`: a random UUID's 16 bytes in
 * unpadded base64url, replacing the client's previous one. GET answers 204, HEAD 200.
 */
const newNonce: Parameters<typeof endpoint>[1] = async (c) => {
  // the route validated it
  const { client } = c.req.param() as { client: string };
  const nonce = base64url(uuidToBytes(crypto.randomUUID())!);
  const ttl = c.get('config').brig.optSettings.setNonceTtlSecs;
  await nonceStore.put(database(c.env.DB), {
    user: self(c).user,
    client: normalClient(client),
    nonce,
    expiresAt: Date.now() + ttl * 1000,
  });
  return c.body(null, c.req.method === 'HEAD' ? 200 : 204, { 'Replay-Nonce': nonce, 'Cache-Control': 'no-store' });
};

const nonceRoute = {
  path: '/clients/{client}/nonce',
  summary: 'Get a new nonce for a client CSR, in the response header `Replay-Nonce`',
  request: { params: z.object({ client: clientHex }) },
} as const;

export const getNonce = endpoint(
  {
    ...nonceRoute,
    name: 'get-nonce',
    method: 'get',
    responses: { 204: { description: 'No Content', ...nonceHeaders } },
  },
  newNonce,
);

export const headNonce = endpoint(
  {
    ...nonceRoute,
    name: 'head-nonce',
    method: 'head',
    responses: { 200: { description: 'No Content', ...nonceHeaders } },
  },
  newNonce,
);

const accessTokenResponse = z
  .object({ token: z.string(), type: z.literal('DPoP'), expires_in: z.int().nonnegative() })
  .openapi('DPoPAccessTokenResponse');

/** The P-256 key signing access tokens (`secrets.dpopSigKeyBundle`), with its public half. */
function signingKey(jwkText: string): Promise<{ key: CryptoKey; publicJwk: JWK }> {
  const jwk = JSON.parse(jwkText) as JWK;
  const { kty, crv, x, y } = jwk;
  return (importJWK(jwk, 'ES256') as Promise<CryptoKey>).then((key) => ({ key, publicJwk: { kty, crv, x, y } }));
}

/**
 * `POST /clients/{cid}/access-token`: the DPoP access token an ACME server asks for in the
 * wire-dpop-01 challenge. The client proves with a DPoP proof (header `DPoP`) who it is and which
 * nonce it answers; the token, signed with the backend's P-256 key (`at+jwt`, the key in its
 * header), binds the proof's key (`cnf.kid`) and carries the proof.
 */
export const createAccessToken = endpoint(
  {
    name: 'create-access-token',
    method: 'post',
    path: '/clients/{cid}/access-token',
    summary: 'Create a JWT DPoP access token',
    request: { params: z.object({ cid: clientHex }), headers: z.object({ DPoP: z.string() }) },
    errors: Object.values(e2eiErrors),
    responses: { 200: { description: 'Access token created', ...json(accessTokenResponse) } },
  },
  async (c) => {
    const config = c.get('config');
    const o = config.brig.optSettings;
    const domain = deps(c).domain;
    const db = database(c.env.DB);
    const me = self(c);
    const user = await userStore.byId(db, me.user);
    if (user?.team == null) throw new ApiError(e2eiErrors.notATeamUser);
    if (user.handle === null) throw new ApiError(e2eiErrors.missingHandle);
    if (user.name === '') throw new ApiError(e2eiErrors.missingName);
    const client = normalClient(c.req.valid('param').cid);
    const nonce = await nonceStore.take(db, me.user, client);
    if (nonce === undefined) throw new ApiError(e2eiErrors.badNonce);
    const path = config.brig.secrets.dpopSigKeyBundle;
    if (path === undefined) throw new ApiError(e2eiErrors.noKeyBundle);
    const { key, publicJwk } = await fromConfigFile(c.env, path, signingKey);
    const now = Math.floor(Date.now() / 1000);
    const htu = `https://${domain}/clients/${client}/access-token`;
    const clientUri = clientIdUri(me.user, client, domain);
    const proof = c.req.valid('header').DPoP;
    const { jwk, claims } = await verifyDpopProof(proof, {
      clientUri,
      nonce,
      htu,
      handleUri: `wireapp://%40${user.handle}@${domain}`,
      team: user.team,
      name: user.name,
      nowSeconds: now,
      skewSeconds: o.setDpopMaxSkewSecs,
      maxExp: now + o.setDpopTokenExpirationTimeSecs,
    });
    // iat and nbf an hour early, as wire's jwt-tools writes them: the ACME server's clock may lag.
    const token = await new SignJWT({
      nonce,
      chal: claims.chal,
      cnf: { kid: await calculateJwkThumbprint(jwk) },
      proof,
      client_id: clientUri,
      api_version: 5,
      scope: 'wire_client_id',
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', jwk: publicJwk })
      .setJti(crypto.randomUUID())
      .setSubject(clientUri)
      .setIssuer(htu)
      .setAudience(claims.aud as string)
      .setIssuedAt(now - 3600)
      .setNotBefore(now - 3600)
      .setExpirationTime(now + o.setDpopTokenExpirationTimeSecs)
      .sign(key);
    c.header('Cache-Control', 'no-store');
    return c.json({ token, type: 'DPoP' as const, expires_in: o.setDpopTokenExpirationTimeSecs }, 200);
  },
);
