import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinnedCall } from '../../../src/federator-node/pinned-call.js';
import { rsaFingerprint, rsaKeyOfSpki, spkiOfPem } from '../../../src/shared/integrations/fingerprint.js';
import { rsaTlsIdentity, type RsaTlsIdentity } from '../../helpers/rsa-tls.js';

const fingerprintOf = async (pem: string) => rsaFingerprint((await rsaKeyOfSpki(spkiOfPem(pem)!))!);

describe('pinned calls to integrations', () => {
  let identity: RsaTlsIdentity;
  let server: https.Server;
  let url: URL;
  const seen: Array<{ method: string; path: string; auth: string | undefined; body: string }> = [];

  beforeAll(async () => {
    identity = await rsaTlsIdentity();
    server = https.createServer({ key: identity.key, cert: identity.cert }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, path: req.url!, auth: req.headers.authorization, body });
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/lh/`);
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reach a self-signed peer whose key is the registered one', async () => {
    const reply = await pinnedCall({
      url: new URL('initiate?x=1', url),
      method: 'POST',
      headers: { authorization: 'Bearer t0ken', 'content-type': 'application/json' },
      body: '{"a":1}',
      fingerprint: await fingerprintOf(identity.publicKeyPem),
    });
    expect(reply).toEqual({ status: 201, body: '{"ok":true}' });
    expect(seen.at(-1)).toEqual({ method: 'POST', path: '/lh/initiate?x=1', auth: 'Bearer t0ken', body: '{"a":1}' });
  });

  it('reach a peer whose key is one of several registered (a service rotating its key)', async () => {
    const old = await rsaTlsIdentity();
    const fingerprint = [await fingerprintOf(old.publicKeyPem), await fingerprintOf(identity.publicKeyPem)];
    const reply = await pinnedCall({ url, method: 'GET', headers: {}, body: undefined, fingerprint });
    expect(reply.status).toBe(201);
  });

  it('refuse a peer with another key, before sending anything', async () => {
    const other = await rsaTlsIdentity();
    const before = seen.length;
    await expect(
      pinnedCall({
        url,
        method: 'GET',
        headers: {},
        body: undefined,
        fingerprint: await fingerprintOf(other.publicKeyPem),
      }),
    ).rejects.toMatchObject({ status: 502, label: 'integration-unreachable' });
    expect(seen.length).toBe(before);
  });

  it('refuse a peer whose certificate has expired', async () => {
    const expired = await rsaTlsIdentity({ validDays: -1 });
    const old = https.createServer({ key: expired.key, cert: expired.cert }, (_q, res) => res.end());
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', r));
    try {
      await expect(
        pinnedCall({
          url: new URL(`https://127.0.0.1:${(old.address() as AddressInfo).port}/`),
          method: 'GET',
          headers: {},
          body: undefined,
          fingerprint: await fingerprintOf(expired.publicKeyPem),
        }),
      ).rejects.toMatchObject({ status: 502, message: 'the certificate is not valid now' });
    } finally {
      await new Promise<void>((r) => old.close(() => r()));
    }
  });

  it('give up on a peer that does not answer, after retrying', async () => {
    const closed = https.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(
      pinnedCall({
        url: new URL(`https://127.0.0.1:${port}/`),
        method: 'GET',
        headers: {},
        body: undefined,
        fingerprint: 'x',
      }),
    ).rejects.toMatchObject({ status: 502, label: 'integration-unreachable' });
  });
});
