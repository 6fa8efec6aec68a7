import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  calculateJwkThumbprint,
  compactVerify,
  EmbeddedJWK,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { addClient } from '../../helpers/clients.js';
import { call, wireError } from '../../helpers/http.js';
import { api, createUser, invitedMember, teamOwner, type TeamOwner, type TestUser } from '../../helpers/users.js';
import { putSelfHandle } from '../../helpers/endpoints/brig.js';

const DOMAIN = 'example.com';
const AUD = 'https://acme.example.com/acme/wire/challenge/aaa/bbb';

/** The client's identity as the test spells it: the user id's bytes in base64url, `!`, the client id. */
const clientUri = (user: string, client: string) =>
  `wireapp://${Buffer.from(user.replace(/-/g, ''), 'hex').toString('base64url')}!${client}@${DOMAIN}`;

describe('brig: DPoP access tokens for end-to-end identity (ACME wire-dpop-01)', () => {
  let b: TestBackend;
  let backendKey: CryptoKey;
  let owner: TeamOwner;
  let cid: string;
  const handle = `alice-${Date.now().toString(36)}`;
  let device: { privateKey: CryptoKey; jwk: JWK };

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    backendKey = pair.publicKey;
    const dir = mkdtempSync(join(tmpdir(), 'dpop-'));
    writeFileSync(join(dir, 'bundle.pem'), await exportPKCS8(pair.privateKey));
    b = await startEditedBackend([
      ['brig.yaml', ['secrets', 'dpopSigKeyBundle'], join(dir, 'bundle.pem')],
      ['brig.yaml', ['optSettings', 'setDpopTokenExpirationTimeSecs'], 300],
    ]);
    owner = await teamOwner(b.publicUrl, b.internalUrl, 'Alice Smith');
    expect((await putSelfHandle(b.publicUrl, owner.token, { handle })).status).toBe(200);
    cid = await addClient(b.publicUrl, owner);
    const d = await generateKeyPair('ES256', { extractable: true });
    device = { privateKey: d.privateKey, jwk: await exportJWK(d.publicKey) };
  });
  afterAll(async () => b?.stop());

  const nonce = async (user: TestUser = owner, client = cid) => {
    const r = await call(b.publicUrl, `/v8/clients/${client}/nonce`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(r.status).toBe(200);
    return r.headers.get('replay-nonce')!;
  };

  /** A DPoP proof as a client writes it (RFC 9449 plus wire's claims); `edit` changes what a case needs. */
  async function proof(
    n: string,
    edit: { claims?: Record<string, unknown>; header?: Record<string, unknown>; key?: CryptoKey } = {},
  ) {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iat: now,
      nbf: now,
      exp: now + 60,
      jti: crypto.randomUUID(),
      sub: clientUri(owner.id, cid),
      nonce: n,
      htm: 'POST',
      htu: `https://${DOMAIN}/clients/${cid}/access-token`,
      chal: 'wa2VrkCtW1sauJ2D3uKY8rc7y4kl4usH',
      aud: AUD,
      handle: `wireapp://%40${handle}@${DOMAIN}`,
      team: owner.team,
      name: 'Alice Smith',
      ...edit.claims,
    };
    for (const [k, v] of Object.entries(claims)) if (v === undefined) delete claims[k];
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: device.jwk, ...edit.header })
      .sign(edit.key ?? device.privateKey);
  }

  const ask = (dpop: string, user: TestUser = owner, client = cid) =>
    api(b.publicUrl, user.token).post(`/v8/clients/${client}/access-token`, undefined, { dpop });

  it('hands out single nonces in Replay-Nonce: HEAD 200, GET 204, visible to browsers', async () => {
    const head = await call(b.publicUrl, `/v8/clients/${cid}/nonce`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${owner.token}`, origin: 'http://localhost:8081' },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('replay-nonce')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(head.headers.get('access-control-expose-headers')).toContain('Replay-Nonce');
    const get = await api(b.publicUrl, owner.token).get(`/v8/clients/${cid}/nonce`);
    expect(get.status).toBe(204);
    expect(get.headers.get('replay-nonce')).not.toBe(head.headers.get('replay-nonce'));
  });

  it('issues an access token the ACME server verifies with the backend key, bound to the proof key', async () => {
    const n = await nonce();
    const dpop = await proof(n);
    const r = await ask(dpop);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.body).toEqual({ token: expect.any(String), type: 'DPoP', expires_in: 300 });
    // The token is the JWS itself, not encoded again.
    expect(r.body.token.split('.')).toHaveLength(3);
    // The ACME side: the backend's public key, the typ, the issuer (the proof's htu) and audience.
    const htu = `https://${DOMAIN}/clients/${cid}/access-token`;
    const { payload, protectedHeader } = await jwtVerify(r.body.token, backendKey, {
      typ: 'at+jwt',
      issuer: htu,
      audience: AUD,
      clockTolerance: 5,
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', jwk: await exportJWK(backendKey) });
    expect(payload).toMatchObject({
      sub: clientUri(owner.id, cid),
      client_id: clientUri(owner.id, cid),
      nonce: n,
      chal: 'wa2VrkCtW1sauJ2D3uKY8rc7y4kl4usH',
      api_version: 5,
      scope: 'wire_client_id',
      cnf: { kid: await calculateJwkThumbprint(device.jwk) },
      proof: dpop,
    });
    // and the proof it carries verifies with its own key, whose thumbprint the token binds
    const embedded = await compactVerify(payload.proof as string, EmbeddedJWK);
    expect(await calculateJwkThumbprint(embedded.protectedHeader.jwk!)).toBe((payload.cnf as { kid: string }).kid);
  });

  it('uses a nonce once; a newer nonce replaces the older', async () => {
    const n = await nonce();
    expect((await ask(await proof(n))).status).toBe(200);
    expect(await ask(await proof(n))).toMatchObject({ status: 400, body: wireError(400, 'client-token-bad-nonce') });
    const older = await nonce();
    const newer = await nonce();
    expect(await ask(await proof(older))).toMatchObject({
      status: 400,
      body: wireError(400, 'client-token-bad-nonce'),
    });
    // the failed request used the newer one up too: the client asks again
    expect(await ask(await proof(newer))).toMatchObject({
      status: 400,
      body: wireError(400, 'client-token-bad-nonce'),
    });
    expect((await ask(await proof(await nonce()))).status).toBe(200);
  });

  it('refuses proofs that do not fit the client, the user or the endpoint, with wire labels', async () => {
    const now = Math.floor(Date.now() / 1000);
    const other = await generateKeyPair('ES256');
    const cases: Array<[label: string, edit: Parameters<typeof proof>[1]]> = [
      ['dpop-display-name-mismatch', { claims: { name: 'Mallory' } }],
      ['dpop-handle-mismatch', { claims: { handle: `wireapp://%40someone@${DOMAIN}` } }],
      ['dpop-team-mismatch', { claims: { team: crypto.randomUUID() } }],
      ['dpop-team-mismatch', { claims: { team: undefined } }],
      ['dpop-htu-mismatch', { claims: { htu: `https://${DOMAIN}/v8/clients/${cid}/access-token` } }],
      ['dpop-htm-mismatch', { claims: { htm: 'GET' } }],
      ['client-token-bad-client-id', { claims: { sub: clientUri(owner.id, 'abc') } }],
      ['client-token-type-error', { header: { typ: 'JWT' } }],
      ['client-token-bad-signature', { key: other.privateKey }],
      ['client-token-exp-too-large', { claims: { exp: now + 3600 } }],
      ['client-token-exp-too-small', { claims: { exp: now - 60 } }],
      ['client-token-bad-iat', { claims: { iat: now + 600 } }],
      ['client-token-chal-missing', { claims: { chal: undefined } }],
      ['client-token-jti-missing', { claims: { jti: undefined } }],
    ];
    for (const [label, edit] of cases)
      expect(await ask(await proof(await nonce(), edit)), label).toMatchObject({
        status: 400,
        body: wireError(400, label),
      });
    // the nonce is looked at before the proof, which is refused when it is no JWS
    expect(await ask('not.a.jws')).toMatchObject({ status: 400, body: wireError(400, 'client-token-bad-nonce') });
    await nonce();
    expect(await ask('xxxx')).toMatchObject({ status: 400, body: wireError(400, 'jwt-simple-error') });
  });

  it('issues tokens only to team users with a handle', async () => {
    const personal = await createUser(b.publicUrl, b.internalUrl);
    const pc = await addClient(b.publicUrl, personal);
    expect(await ask(await proof(await nonce(personal, pc)), personal, pc)).toMatchObject({
      status: 400,
      body: wireError(400, 'not-a-team-user'),
    });
    const member = await invitedMember(b.publicUrl, owner);
    const mc = await addClient(b.publicUrl, member);
    expect(await ask(await proof(await nonce(member, mc)), member, mc)).toMatchObject({
      status: 400,
      body: wireError(400, 'missing-handle'),
    });
  });
});
