import { promises as dns } from 'node:dns';

export interface SrvTarget {
  host: string;
  port: number;
}

export type Discovered =
  | { ok: true; target: SrvTarget }
  | { ok: false; reason: 'no-record' | 'dns-error'; detail: string };

/** The SRV record naming a backend's federator. */
const srvName = (domain: string) => `_svc-federator._tcp.${domain}`;

const NO_RECORD = new Set<string>([dns.NOTFOUND, dns.NODATA, dns.NONAME]);

/**
 * Finds remote federators through `_svc-federator._tcp.<domain>`, asking the configured DNS
 * server (`dnsHost`/`dnsPort`) or the system's. The record of lowest priority, then highest
 * weight, wins.
 */
export class Discovery {
  private readonly resolver = new dns.Resolver({ timeout: 2000, tries: 2 });

  constructor(server?: { host: string; port: number }) {
    if (server !== undefined) this.resolver.setServers([`${server.host}:${server.port}`]);
  }

  async find(domain: string): Promise<Discovered> {
    try {
      const records = await this.resolver.resolveSrv(srvName(domain));
      const best = records.sort((a, b) => a.priority - b.priority || b.weight - a.weight)[0];
      if (best === undefined) return { ok: false, reason: 'no-record', detail: `no SRV record for ${domain}` };
      return { ok: true, target: { host: best.name, port: best.port } };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      const detail = `${srvName(domain)}: ${code || (err as Error).message}`;
      return { ok: false, reason: NO_RECORD.has(code) ? 'no-record' : 'dns-error', detail };
    }
  }
}
