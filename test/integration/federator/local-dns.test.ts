import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ConfigTexts } from '../../../src/shared/config/index.js';
import { ROOT } from '../../../tools/lib/bundle.js';
import { readConfigTexts } from '../../../tools/lib/config-dir.js';
import { startLocalDns, type LocalDns } from '../../../tools/lib/local-dns.js';
import { freeFixedPort } from '../../../tools/lib/ports.js';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { editedTexts } from '../../helpers/config-files.js';
import { A, B, srvName } from '../../helpers/federation.js';
import { createUser } from '../../helpers/users.js';
import { getUser } from '../../helpers/endpoints/brig.js';

interface Ports {
  internal: number;
  external: number;
  dns: number;
}

/** The shipped configuration of `dir` with its federator's and DNS server's ports moved to `p`. */
function withPorts(dir: string, p: Ports): ConfigTexts {
  return editedTexts(
    [
      ['federator.yaml', ['federatorInternal', 'port'], p.internal],
      ['federator.yaml', ['federatorExternal', 'port'], p.external],
      ['federator.yaml', ['optSettings', 'dnsPort'], p.dns],
      ['brig.yaml', ['dnsOverHttpsUrl'], `http://127.0.0.1:${p.dns}/dns-query`],
    ],
    readConfigTexts(dir),
  );
}

function writeConfig(dir: string, texts: ConfigTexts): string {
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(texts)) if (text !== undefined) writeFileSync(join(dir, file), text);
  return dir;
}

/** A listener that takes connections and drops them, as a federator speaking another CA's TLS fails. */
function tcpHolder(port: number): Promise<Server> {
  const server = createServer((socket) => socket.destroy());
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * Two backends started as npm start starts them (federator on the configured ports unless they
 * are held, and the DNS server federator.yaml names), while another checkout's pair holds those
 * ports: its DNS servers name its federators, on the configured external ports. So this pair's
 * federators and DNS servers fall back to free ports, and must still find each other.
 */
describe('npm start beside another checkout holding the federator and DNS ports', () => {
  const holders: Server[] = [];
  const foreignDns: LocalDns[] = [];
  let a: TestBackend;
  let b: TestBackend;

  beforeAll(async () => {
    const fixed = async (): Promise<Ports> => ({
      internal: await freeFixedPort(),
      external: await freeFixedPort(),
      dns: await freeFixedPort(),
    });
    const [pa, pb] = [await fixed(), await fixed()];
    for (const p of [pa, pb]) holders.push(await tcpHolder(p.internal), await tcpHolder(p.external));
    const foreign = {
      [srvName(A)]: { target: '127.0.0.1', port: pa.external },
      [srvName(B)]: { target: '127.0.0.1', port: pb.external },
    };
    for (const p of [pa, pb]) foreignDns.push(await startLocalDns(foreign, p.dns));

    const root = mkdtempSync(join(inject('tmpRoot'), 'local-dns-'));
    const dirA = writeConfig(join(root, 'config'), withPorts(join(ROOT, 'config'), pa));
    const dirB = writeConfig(join(root, 'config', B), withPorts(join(ROOT, 'config', B), pb));
    const dirs = [dirA, dirB];
    [a, b] = await Promise.all([
      startEditedBackend([], { base: readConfigTexts(dirA), serveDns: dirs }),
      startEditedBackend([], { base: readConfigTexts(dirB), serveDns: dirs }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all(foreignDns.map((d) => d.stop()));
    await Promise.all(holders.map((h) => new Promise((resolve) => h.close(resolve))));
  });

  it('finds the other backend of its own checkout, in both directions', async () => {
    const [alice, bob] = await Promise.all([
      createUser(a.publicUrl, a.internalUrl),
      createUser(b.publicUrl, b.internalUrl),
    ]);
    const bobSeen = await getUser(a.publicUrl, alice.token, { domain: B, id: bob.id });
    expect(bobSeen.status, bobSeen.text).toBe(200);
    expect(bobSeen.body.qualified_id).toEqual({ id: bob.id, domain: B });
    const aliceSeen = await getUser(b.publicUrl, bob.token, { domain: A, id: alice.id });
    expect(aliceSeen.status, aliceSeen.text).toBe(200);
    expect(aliceSeen.body.qualified_id).toEqual({ id: alice.id, domain: A });
  });
});
