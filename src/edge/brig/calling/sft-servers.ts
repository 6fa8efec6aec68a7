import type { Config } from '../../../shared/config/index.js';
import { discovered } from '../../dns/discovery.js';
import { resolveSrv } from '../../dns/resolver.js';
import { shuffled } from './turn-uri.js';

type Brig = Config['brig'];

/** The SFT servers' URLs found under `_<service>._tcp.<sftBaseDomain>`, in the DNS answer's order. */
function srvSfts(brig: Brig): Promise<string[] | undefined> {
  const sft = brig.sft;
  if (sft === undefined) return Promise.resolve(undefined);
  const name = `_${sft.sftSRVServiceName}._tcp.${sft.sftBaseDomain}`;
  return discovered(`sft:${name}`, sft.sftDiscoveryIntervalSeconds, async () =>
    (await resolveSrv(brig.dnsOverHttpsUrl, name)).map((r) => `https://${r.target}:${r.port}`),
  );
}

/** `sft_servers`: the static URL, or `sftListLength` of the discovered ones at random; undefined for none. */
export async function sftServers(brig: Brig): Promise<string[] | undefined> {
  const url = brig.optSettings.setSftStaticUrl;
  if (url !== undefined) return [url];
  const all = await srvSfts(brig);
  return all === undefined ? undefined : shuffled(all).slice(0, brig.sft!.sftListLength);
}

/**
 * `sft_servers_all` (with `setSftListAllServers` enabled): every discovered server, or what the
 * static SFT lists at `/sft_servers_all.json`; undefined when that list cannot be had (the key is
 * then left out, as the calls themselves can go on without it).
 */
export async function allSftServers(brig: Brig): Promise<string[] | undefined> {
  const url = brig.optSettings.setSftStaticUrl;
  if (url === undefined) return (await srvSfts(brig)) ?? [];
  try {
    const res = await fetch(new URL('/sft_servers_all.json', url), { headers: { accept: 'application/json' } });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { sft_servers_all?: unknown };
    const list = body.sft_servers_all;
    return Array.isArray(list) && list.every((u) => typeof u === 'string') ? list : undefined;
  } catch {
    return undefined;
  }
}
