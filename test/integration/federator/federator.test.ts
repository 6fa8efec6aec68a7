import { mkdtempSync, readFileSync } from 'node:fs';
import http2 from 'node:http2';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startFederator, type RunningFederator } from '../../../src/federator-node/federator.js';
import { localPki } from '../../../src/federator-node/pki.js';
import { startLocalDns, type LocalDns } from '../../../tools/lib/local-dns.js';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import type { Edit } from '../../helpers/config-files.js';

const A = 'example.com';
const B = 'b.example.com';
const srv = (domain: string) => `_svc-federator._tcp.${domain}`;

/** The backend's domain in every file that names one. */
const domainEdits = (domain: string): Edit[] => [
  ['brig.yaml', ['optSettings', 'setFederationDomain'], domain],
  ['galley.yaml', ['settings', 'federationDomain'], domain],
  ['cargohold.yaml', ['settings', 'federationDomain'], domain],
];
const federationOn: Edit[] = ['brig.yaml', 'galley.yaml', 'cargohold.yaml', 'background-worker.yaml'].map((f) => [
  f,
  ['enableFederation'],
  true,
]);

/** A federator with its external listener. */
type Federating = RunningFederator & { externalPort: number };

/** One request to a federator's inward face, as a remote would make it (no client certificate here). */
async function inwardCall(
  port: number,
  ca: string,
  origin: string,
  o: { method: string; path: string } = { method: 'POST', path: '/federation/brig/api-version' },
): Promise<{ status: number; body: any }> {
  const session = http2.connect(`https://localhost:${port}`, { ca: readFileSync(ca, 'utf8'), servername: B });
  try {
    return await new Promise((resolve, reject) => {
      session.once('error', reject);
      const req = session.request({ ':method': o.method, ':path': o.path, 'wire-origin-domain': origin });
      let text = '';
      let status = 0;
      req.on('response', (h) => {
        status = Number(h[':status']);
      });
      req.on('data', (c: Buffer) => {
        text += c.toString();
      });
      req.on('end', () => resolve({ status, body: text === '' ? undefined : JSON.parse(text) }));
      req.end(o.method === 'POST' ? '{}' : undefined);
    });
  } finally {
    session.close();
  }
}

describe('the federator: HTTP/2 with mutual TLS between two backends', () => {
  let pki: string;
  let dns: LocalDns;
  let backendB: TestBackend;
  let fedB: Federating;
  const started: RunningFederator[] = [];

  /** A federator for `domain`, with `certFor`'s certificate (its own by default), trusting the local CA (or nothing). */
  async function federator(
    domain: string,
    o: { certFor?: string; trustLocalCa?: boolean; workerInternal?: string } = {},
  ): Promise<Federating> {
    const own = await localPki(pki, domain);
    const cert = await localPki(pki, o.certFor ?? domain);
    const f = await startFederator({
      domain,
      internal: { host: '127.0.0.1', port: 0 },
      federation: {
        external: { host: '127.0.0.1', port: 0 },
        tls: {
          useSystemCAStore: false,
          ...(o.trustLocalCa === false ? {} : { remoteCAStore: own.ca }),
          clientCertificate: cert.certificate,
          clientPrivateKey: cert.privateKey,
        },
      },
      tcpConnectionTimeoutMicros: 5_000_000,
      dns: { host: dns.host, port: dns.port },
      workerInternal: new URL(o.workerInternal ?? inject('internalUrl')),
    });
    started.push(f);
    expect(f.externalPort).toBeTypeOf('number');
    return f as Federating;
  }

  const call = (f: RunningFederator, path: string, init: RequestInit = {}) =>
    fetch(new URL(path, f.internalUrl), { method: 'POST', body: '{}', ...init });

  beforeAll(async () => {
    pki = mkdtempSync(join(inject('tmpRoot'), 'pki-'));
    dns = await startLocalDns();
    backendB = await startEditedBackend([
      ...domainEdits(B),
      ...federationOn,
      ['brig.yaml', ['optSettings', 'setFederationStrategy'], 'allowList'],
      ['brig.yaml', ['optSettings', 'setFederationDomainConfigs'], [{ domain: A, search_policy: 'full_search' }]],
    ]);
    fedB = await federator(B, { workerInternal: backendB.internalUrl });
    dns.set(srv(B), { target: 'localhost', port: fedB.externalPort });
  });
  afterAll(async () => {
    for (const f of started) await f.stop(1000);
    await backendB?.stop();
    await dns?.stop();
  });

  it("reaches the remote backend's federation API through both federators", async () => {
    const fedA = await federator(A);
    const r = await call(fedA, `/rpc/${B}/brig/api-version`, { headers: { 'x-svc-api-version': 'v2' } });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ versions: [0, 1, 2] });
    // Both sides counted it.
    const scraped = await (await fetch(new URL('/i/metrics', fedA.internalUrl))).text();
    expect(scraped).toContain(
      `svc_federator_outward_requests_total{domain="${B}",component="brig",rpc="api-version",status="200"} 1`,
    );
    expect(scraped).toContain('# TYPE http_request_duration_seconds histogram');
    expect(scraped).toContain(
      'http_request_duration_seconds_count{handler="/rpc/:domain/:component/:rpc",method="POST",status_code="200"} 1',
    );
    expect(fedB.metrics.text()).toContain(
      'svc_federator_inward_requests_total{component="brig",rpc="api-version",status="200"} 1',
    );
    expect(fedB.metrics.text()).toMatch(
      /http_request_duration_seconds_bucket\{handler="\/federation\/:component\/:rpc",method="POST",status_code="200",le="\+Inf"\} 1/,
    );
    expect((await fetch(new URL('/i/status', fedA.internalUrl))).status).toBe(200);
    // The federation API is the internal ingress's alone.
    for (const path of ['/federation/brig/api-version', '/v8/federation/brig/api-version'])
      expect((await fetch(new URL(path, backendB.publicUrl), { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('refuses a backend that presents no client certificate', async () => {
    const r = await inwardCall(fedB.externalPort, (await localPki(pki, B)).ca, A);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ label: 'no-client-certificate' });
    // Its health answers anyone (load balancers); its metrics are for the operator's side only.
    const ca = (await localPki(pki, B)).ca;
    expect((await inwardCall(fedB.externalPort, ca, A, { method: 'GET', path: '/i/status' })).status).toBe(200);
    expect((await inwardCall(fedB.externalPort, ca, A, { method: 'GET', path: '/i/metrics' })).status).toBe(404);
  });

  it('refuses a certificate made out to another domain than the origin', async () => {
    const impostor = await federator(A, { certFor: 'c.example.com' });
    const r = await call(impostor, `/rpc/${B}/brig/api-version`);
    // The remote's 403 reaches the caller inside its own federator's 533.
    expect(r.status).toBe(533);
    expect(await r.json()).toMatchObject({
      label: 'federation-remote-error',
      data: { type: 'federation', domain: B, path: '/federation/brig/api-version' },
      inner: { code: 403, label: 'authentication-failure' },
    });
  });

  it('calls no backend outside its own allow list', async () => {
    const fedA = await federator(A);
    const r = await call(fedA, '/rpc/d.example.com/brig/api-version');
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ label: 'federation-denied' });
  });

  it('refuses a domain outside the allow list', async () => {
    const outsider = await federator('d.example.com');
    const r = await call(outsider, `/rpc/${B}/brig/api-version`);
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ label: 'federation-denied' });
    expect(fedB.metrics.text()).toContain(
      'svc_federator_inward_requests_total{component="brig",rpc="api-version",status="400"}',
    );
  });

  it('fails every handshake with a TLS error when no CA store is configured', async () => {
    const untrusting = await federator(A, { trustLocalCa: false });
    const r = await call(untrusting, `/rpc/${B}/brig/api-version`);
    expect(r.status).toBe(525);
    expect(await r.json()).toMatchObject({ label: 'federation-tls-error' });
  });

  it('answers 422 invalid-domain without an SRV record, and 521 when the remote is down', async () => {
    const fedA = await federator(A);
    dns.set(srv(B), undefined);
    try {
      const unknown = await call(fedA, `/rpc/${B}/brig/api-version`);
      expect(unknown.status).toBe(422);
      expect(await unknown.json()).toMatchObject({ label: 'invalid-domain' });
    } finally {
      dns.set(srv(B), { target: 'localhost', port: fedB.externalPort });
    }

    const down = await federator(B, { workerInternal: backendB.internalUrl });
    dns.set(srv(B), { target: 'localhost', port: down.externalPort });
    await down.stop(1000);
    try {
      const r = await call(fedA, `/rpc/${B}/brig/api-version`);
      expect(r.status).toBe(521);
      expect(await r.json()).toMatchObject({ label: 'federation-connection-refused' });
    } finally {
      dns.set(srv(B), { target: 'localhost', port: fedB.externalPort });
    }
  });

  it('stops without waiting out its grace for idle remote sessions; the caller then reconnects', async () => {
    const fedA = await federator(A);
    const replacement = await federator(B, { workerInternal: backendB.internalUrl });
    dns.set(srv(B), { target: 'localhost', port: replacement.externalPort });
    try {
      expect((await call(fedA, `/rpc/${B}/brig/api-version`)).status).toBe(200);
      // fedA keeps its HTTP/2 session open; stopping sends it a GOAWAY instead of waiting 30 s.
      const stopped = replacement.stop(30_000).then(() => 'stopped');
      const stuck = new Promise((r) => setTimeout(() => r('stuck'), 5_000).unref());
      expect(await Promise.race([stopped, stuck])).toBe('stopped');
    } finally {
      dns.set(srv(B), { target: 'localhost', port: fedB.externalPort });
    }
    expect((await call(fedA, `/rpc/${B}/brig/api-version`)).status).toBe(200);
  });

  it('takes only POST to known components, without a query string', async () => {
    const fedA = await federator(A);
    expect((await fetch(new URL(`/rpc/${B}/brig/api-version`, fedA.internalUrl))).status).toBe(405);
    expect((await call(fedA, `/rpc/${B}/spar/api-version`)).status).toBe(404);
    expect((await call(fedA, `/rpc/${B}/brig/api-version?x=1`)).status).toBe(404);
  });
});
