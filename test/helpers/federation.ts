import { join } from 'node:path';
import { ROOT } from '../../tools/lib/bundle.js';
import { readConfigTexts } from '../../tools/lib/config-dir.js';
import { startLocalDns, type LocalDns } from '../../tools/lib/local-dns.js';
import { startEditedBackend, type TestBackend } from './backend.js';
import type { Edit } from './config-files.js';

/** The shipped configurations' domains: config/ and config/b.example.com/. */
export const A = 'example.com';
export const B = 'b.example.com';

export const srvName = (domain: string) => `_svc-federator._tcp.${domain}`;

export interface FederatedPair {
  a: TestBackend;
  b: TestBackend;
  /** The DNS server both federators ask (`dns.set` moves or removes a backend). */
  dns: LocalDns;
  stop(): Promise<void>;
}

/** Points a domain's SRV record at a backend's federator. */
export function announce(dns: LocalDns, domain: string, backend: TestBackend): void {
  dns.set(srvName(domain), { target: '127.0.0.1', port: backend.federator!.externalPort });
}

/**
 * Two backends on the shipped configurations (config/ as example.com, config/b.example.com/),
 * each with its federator, certificates from the test run's local CA, and one DNS server that
 * knows both: the local two-backend setup of the README, on free ports.
 */
export async function startFederatedPair(edits: { a?: Edit[]; b?: Edit[] } = {}): Promise<FederatedPair> {
  const dns = await startLocalDns();
  const base = readConfigTexts(join(ROOT, 'config', B));
  const [a, b] = await Promise.all([
    startEditedBackend(edits.a ?? [], { dns }),
    startEditedBackend(edits.b ?? [], { dns, base }),
  ]);
  announce(dns, A, a);
  announce(dns, B, b);
  return {
    a,
    b,
    dns,
    stop: async () => {
      await Promise.all([a.stop(), b.stop()]);
      await dns.stop();
    },
  };
}
