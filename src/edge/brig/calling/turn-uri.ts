/** A TURN server address: `turn[s]:<host>:<port>[?transport=udp|tcp]` (host: IPv4 or DNS name). */
export interface TurnUri {
  scheme: 'turn' | 'turns';
  host: string;
  port: number;
  transport?: 'udp' | 'tcp';
}

const URI = /^(turns?):([^:?]+):(\d{1,5})(?:\?transport=(udp|tcp))?$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HOSTNAME =
  /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

function validHost(host: string): boolean {
  const ip = IPV4.exec(host);
  if (ip) return ip.slice(1).every((o) => Number(o) <= 255);
  return HOSTNAME.test(host);
}

export function parseTurnUri(text: string): TurnUri | undefined {
  const m = URI.exec(text.trim());
  if (!m) return undefined;
  const [, scheme, host, port, transport] = m as unknown as [string, 'turn' | 'turns', string, string, string?];
  const p = Number(port);
  if (!validHost(host) || p < 1 || p > 65535) return undefined;
  return { scheme, host, port: p, ...(transport === undefined ? {} : { transport: transport as 'udp' | 'tcp' }) };
}

/** A servers file: one URI a line; lines that are not one are left out. */
export function parseTurnServers(text: string): TurnUri[] {
  return text.split('\n').flatMap((line) => {
    const uri = parseTurnUri(line);
    return uri === undefined ? [] : [uri];
  });
}

export function renderTurnUri(u: TurnUri): string {
  return `${u.scheme}:${u.host}:${u.port}${u.transport === undefined ? '' : `?transport=${u.transport}`}`;
}

type Kind = 'udp' | 'tls' | 'tcp';

function kindOf(u: TurnUri): Kind | undefined {
  if (u.scheme === 'turn') return u.transport === 'tcp' ? 'tcp' : 'udp';
  return u.transport === 'tcp' ? 'tls' : undefined;
}

/**
 * At most `limit` servers, spread over the transports: rounds of one UDP, one TLS and one TCP
 * server, in list order; when a round finds none of them, the rest fill up in list order.
 */
export function limitServers(servers: readonly TurnUri[], limit: number): TurnUri[] {
  const left = [...servers];
  const picked: TurnUri[] = [];
  while (picked.length < limit && left.length > 0) {
    let found = false;
    for (const kind of ['udp', 'tls', 'tcp'] as const) {
      if (picked.length >= limit) break;
      const i = left.findIndex((u) => kindOf(u) === kind);
      if (i < 0) continue;
      picked.push(...left.splice(i, 1));
      found = true;
    }
    if (!found) picked.push(...left.splice(0, limit - picked.length));
  }
  return picked;
}

/** The list in random order (Fisher–Yates). */
export function shuffled<T>(list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = crypto.getRandomValues(new Uint32Array(1))[0]! % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
