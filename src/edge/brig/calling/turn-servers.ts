import type { Config } from '../../../shared/config/index.js';
import { fromConfigFile } from '../../api/config-files.js';
import { discovered } from '../../dns/discovery.js';
import { resolveA, resolveSrv } from '../../dns/resolver.js';
import { parseTurnServers, type TurnUri } from './turn-uri.js';

type Brig = Config['brig'];

const fileServers = (env: Env, path: string): TurnUri[] => fromConfigFile(env, path, parseTurnServers);

/** The SRV records of TURN below a domain, as URIs; records of weight 0 are out of service. */
async function srvServers(resolver: string, name: string, make: (host: string, port: number) => TurnUri) {
  return (await resolveSrv(resolver, name)).filter((r) => r.weight > 0).map((r) => make(r.target, r.port));
}

async function dnsServersV2(brig: Brig, base: string, interval: number): Promise<TurnUri[]> {
  const resolver = brig.dnsOverHttpsUrl;
  const [udp, tcp, tls] = await Promise.all([
    discovered(`turn-udp:${base}`, interval, () =>
      srvServers(resolver, `_turn._udp.${base}`, (host, port) => ({ scheme: 'turn', host, port, transport: 'udp' })),
    ),
    discovered(`turn-tcp:${base}`, interval, () =>
      srvServers(resolver, `_turn._tcp.${base}`, (host, port) => ({ scheme: 'turn', host, port, transport: 'tcp' })),
    ),
    discovered(`turns-tcp:${base}`, interval, () =>
      srvServers(resolver, `_turns._tcp.${base}`, (host, port) => ({ scheme: 'turns', host, port, transport: 'tcp' })),
    ),
  ]);
  return [...(udp ?? []), ...(tcp ?? []), ...(tls ?? [])];
}

/** The v1 list from DNS: the UDP servers by IPv4 address (old clients do not resolve names). */
async function dnsServersV1(brig: Brig, base: string, interval: number): Promise<TurnUri[]> {
  const resolver = brig.dnsOverHttpsUrl;
  return (
    (await discovered(`turn-v1:${base}`, interval, async () => {
      const udp = (await resolveSrv(resolver, `_turn._udp.${base}`)).filter((r) => r.weight > 0);
      const found = await Promise.all(
        udp.map(async (r): Promise<TurnUri[]> => {
          const [ip] = await resolveA(resolver, r.target);
          return ip === undefined ? [] : [{ scheme: 'turn', host: ip, port: r.port }];
        }),
      );
      return found.flat();
    })) ?? []
  );
}

/** The TURN servers clients are told about: the v2 list, or the v1 list of /calls/config. */
export async function turnServers(env: Env, brig: Brig, list: 'v1' | 'v2'): Promise<TurnUri[]> {
  const turn = brig.turn;
  if (turn.serversSource === 'files') return fileServers(env, list === 'v1' ? turn.servers : turn.serversV2);
  return list === 'v1'
    ? dnsServersV1(brig, turn.baseDomain, turn.discoveryIntervalSeconds)
    : dnsServersV2(brig, turn.baseDomain, turn.discoveryIntervalSeconds);
}
