import * as packet from '@leichtgewicht/dns-packet';

/** One SRV record: where a service runs. */
export interface SrvTarget {
  target: string;
  port: number;
  priority: number;
  weight: number;
}

/** The resolver could not give an answer (network, HTTP or DNS error other than "no such name"). */
class DnsError extends Error {}

/**
 * DNS over HTTPS (RFC 8484, DNS wire format): workers have no UDP, but fetch reaches any resolver
 * that speaks DoH (Cloudflare's and Google's public ones, or a loopback one in tests).
 * A name that does not exist (NXDOMAIN) or holds no record of the type answers `[]`.
 */
async function query(resolverUrl: string, name: string, type: 'SRV' | 'TXT' | 'A'): Promise<packet.Answer[]> {
  const message = packet.encode({ type: 'query', id: 0, flags: packet.RECURSION_DESIRED, questions: [{ type, name }] });
  let reply: packet.Packet;
  try {
    const res = await fetch(resolverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/dns-message', accept: 'application/dns-message' },
      body: message,
    });
    if (!res.ok) throw new DnsError(`resolver answered HTTP ${res.status}`);
    reply = packet.decode(new Uint8Array(await res.arrayBuffer()));
  } catch (err) {
    throw err instanceof DnsError ? err : new DnsError(`no answer for ${type} ${name}: ${(err as Error).message}`);
  }
  if (reply.rcode === 'NXDOMAIN') return [];
  if (reply.rcode !== undefined && reply.rcode !== 'NOERROR') throw new DnsError(`${type} ${name}: ${reply.rcode}`);
  return (reply.answers ?? []).filter((a) => a.type === type);
}

/** The SRV records of a name (`_sft._tcp.example.com`), targets without their trailing dot. */
export async function resolveSrv(resolverUrl: string, name: string): Promise<SrvTarget[]> {
  return (await query(resolverUrl, name, 'SRV')).flatMap((a) =>
    a.type === 'SRV'
      ? [
          {
            target: a.data.target.replace(/\.$/, ''),
            port: a.data.port ?? 0,
            priority: a.data.priority ?? 0,
            weight: a.data.weight ?? 0,
          },
        ]
      : [],
  );
}

const utf8 = new TextDecoder();

/** The TXT records of a name, each one text (its character strings joined, as RFC 7208 reads them). */
export async function resolveTxt(resolverUrl: string, name: string): Promise<string[]> {
  return (await query(resolverUrl, name, 'TXT')).flatMap((a) => {
    if (a.type !== 'TXT') return [];
    const parts = Array.isArray(a.data) ? a.data : [a.data];
    return [parts.map((p) => (typeof p === 'string' ? p : utf8.decode(p))).join('')];
  });
}

/** The IPv4 addresses of a name. */
export async function resolveA(resolverUrl: string, name: string): Promise<string[]> {
  return (await query(resolverUrl, name, 'A')).flatMap((a) => (a.type === 'A' ? [a.data] : []));
}
