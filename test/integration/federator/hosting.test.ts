import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startFederator, type RunningFederator } from '../../../src/federator-node/federator.js';
import { localPki } from '../../../src/federator-node/pki.js';
import { ROOT } from '../../../tools/lib/bundle.js';
import { readConfigTexts } from '../../../tools/lib/config-dir.js';
import { startLocalDns, type LocalDns } from '../../../tools/lib/local-dns.js';
import { sharedBackend, startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import type { Edit } from '../../helpers/config-files.js';
import { call, wireError } from '../../helpers/http.js';
import { startLegalholdService, type LegalholdService } from '../../helpers/legalhold-service.js';
import { createUser, teamOwner } from '../../helpers/users.js';
import { getUser } from '../../helpers/endpoints/brig.js';
import { postLegalholdSettings, putTeamFeature } from '../../helpers/endpoints/galley.js';

// A federator on another host than the worker, as production runs it: the two share the secret
// FEDERATOR_INTERNAL_TOKEN, the worker calls the federator with it, and the federator comes in on
// the worker's door, federator.yaml's `workerInternal` host. Here the door is `localhost`, while
// the tests reach the public ingress as 127.0.0.1.

const A = 'example.com';
const B = 'b.example.com';
const TOKEN = 'c2hhcmVkLWJ5LXdvcmtlci1hbmQtZmVkZXJhdG9y';
const door: Edit = ['federator.yaml', ['workerInternal'], 'http://localhost'];
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const onDoor = (publicUrl: string) => publicUrl.replace('127.0.0.1', 'localhost');

describe('a federator on its own host', () => {
  let b: TestBackend;
  /** With the door configured but not the secret. */
  let unset: TestBackend;
  let service: LegalholdService;
  let dns: LocalDns;
  let pki: string;
  const federators: RunningFederator[] = [];

  /** A federator of `domain` (certificates of the test CA) calling its worker at `workerInternal`. */
  async function federator(domain: string, workerInternal: string, token?: string) {
    const files = await localPki(pki, domain);
    const f = await startFederator({
      domain,
      internal: { host: '127.0.0.1', port: 0 },
      federation: {
        external: { host: '127.0.0.1', port: 0 },
        tls: {
          useSystemCAStore: false,
          remoteCAStore: files.ca,
          clientCertificate: files.certificate,
          clientPrivateKey: files.privateKey,
        },
      },
      tcpConnectionTimeoutMicros: 5_000_000,
      dns: { host: dns.host, port: dns.port },
      workerInternal: new URL(workerInternal),
      token,
    });
    federators.push(f);
    return f;
  }

  beforeAll(async () => {
    pki = mkdtempSync(join(inject('tmpRoot'), 'pki-'));
    dns = await startLocalDns();
    const secrets = { FEDERATOR_INTERNAL_TOKEN: TOKEN };
    [b, unset, service] = await Promise.all([
      startEditedBackend([door], { base: readConfigTexts(join(ROOT, 'config', B)), sidecar: true, secrets }),
      startEditedBackend([door]),
      startLegalholdService(),
    ]);
  });
  afterAll(async () => {
    for (const f of federators) await f.stop(1000);
    await Promise.all([b?.stop(), unset?.stop(), service?.stop(), dns?.stop()]);
  });

  it("refuses calls to the federator's internal face without the token", async () => {
    const face = b.federator!.internalUrl.origin;
    expect((await call(face, '/i/status')).body).toEqual(wireError(401, 'unauthorized'));
    expect((await call(face, '/i/status', { headers: bearer(`${TOKEN}x`) })).status).toBe(401);
    expect((await call(face, '/i/status', { headers: { authorization: TOKEN } })).status).toBe(401);
    expect((await call(face, '/i/status', { headers: bearer(TOKEN) })).status).toBe(200);
  });

  it('has the worker send the token: calls to remotes and to integrations go through', async () => {
    const u = await createUser(b.publicUrl, b.internalUrl);
    // The federator answered past its token check: it asked the worker's allow list.
    const remote = await getUser(b.publicUrl, u.token, { domain: 'c.example.com', id: u.id });
    expect(remote.body).toEqual(wireError(400, 'federation-denied'));

    const owner = await teamOwner(b.publicUrl, b.internalUrl);
    expect(
      (await putTeamFeature(b.publicUrl, owner.token, owner.team, 'legalhold', { status: 'enabled' })).status,
    ).toBe(200);
    const created = await postLegalholdSettings(b.publicUrl, owner.token, owner.team, {
      base_url: service.baseUrl,
      public_key: service.publicKeyPem,
      auth_token: service.authToken,
    });
    expect(created.status, created.text).toBe(201);
  });

  it("opens the worker's door to the federator's calls, with the token only", async () => {
    const at = onDoor(b.publicUrl);
    expect((await call(at, '/i/federation/remotes')).body).toEqual(wireError(401, 'unauthorized'));
    expect((await call(at, '/i/federation/remotes', { headers: bearer('wrong') })).status).toBe(401);
    const remotes = await call(at, '/i/federation/remotes', { headers: bearer(TOKEN) });
    expect(remotes.status).toBe(200);
    expect(remotes.body.remotes).toContainEqual(expect.objectContaining({ domain: A }));
    const rpc = await call(at, '/federation/brig/api-version', {
      method: 'POST',
      headers: { ...bearer(TOKEN), 'content-type': 'application/json', 'wire-origin-domain': A },
      body: '{}',
    });
    expect(rpc.body).toEqual({ versions: [0, 1, 2] });
    // Nothing else: neither the rest of the internal ingress nor the public one.
    for (const path of ['/i/status', '/i/users/activation-code?email=x@example.com', '/api-version', '/v8/api-version'])
      expect((await call(at, path, { headers: bearer(TOKEN) })).body).toEqual(wireError(404, 'no-endpoint'));
  });

  it('serves the public ingress as before on every other host, and everywhere when unset', async () => {
    const federationCall = { method: 'POST', headers: { ...bearer(TOKEN), 'wire-origin-domain': A }, body: '{}' };
    expect((await call(b.publicUrl, '/i/federation/remotes', { headers: bearer(TOKEN) })).body).toEqual(
      wireError(404, 'no-endpoint'),
    );
    expect((await call(b.publicUrl, '/federation/brig/api-version', federationCall)).status).toBe(404);
    expect((await call(b.publicUrl, '/api-version')).status).toBe(200);
    // The door configured without the secret, and neither (the shared backend): no door.
    for (const at of [onDoor(unset.publicUrl), onDoor(sharedBackend().publicUrl)]) {
      expect((await call(at, '/i/federation/remotes', { headers: bearer(TOKEN) })).body).toEqual(
        wireError(404, 'no-endpoint'),
      );
      expect((await call(at, '/federation/brig/api-version', federationCall)).status).toBe(404);
      expect((await call(at, '/api-version')).status).toBe(200);
    }
  });

  it("carries a remote's call through the door, and not with a wrong token", async () => {
    const fedA = await federator(A, inject('internalUrl'));
    const fedB = await federator(B, onDoor(b.publicUrl), TOKEN);
    dns.set(`_svc-federator._tcp.${B}`, { target: 'localhost', port: fedB.externalPort! });
    const r = await call(fedA.internalUrl.origin, `/rpc/${B}/brig/api-version`, { method: 'POST', body: '{}' });
    expect(r.body).toEqual({ versions: [0, 1, 2] });

    const impostor = await federator(B, onDoor(b.publicUrl), 'not-the-token');
    dns.set(`_svc-federator._tcp.${B}`, { target: 'localhost', port: impostor.externalPort! });
    const refused = await call(fedA.internalUrl.origin, `/rpc/${B}/brig/api-version`, { method: 'POST', body: '{}' });
    expect(refused.body).toMatchObject({ label: 'federation-remote-error', inner: { code: 500 } });
  });
});
