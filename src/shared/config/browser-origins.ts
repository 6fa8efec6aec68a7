import type { NginzConfig } from './schemas/nginz.js';

export interface BrowserOrigins {
  /** Origins allowed as they are: `https://<label>.<domain>` for each label and domain, and staging's full names. */
  exact: string[];
  /** Hosts allowed over http or https at any port (local development). */
  anyPortHosts: string[];
}

/**
 * The web origins nginz's configuration lets a browser call from, as wire-server's chart builds
 * them: each allow-listed origin label under each external domain, the full names listed for
 * staging, and host names at any port.
 */
export function browserOrigins(conf: NginzConfig['nginx_conf']): BrowserOrigins {
  const exact: string[] = [];
  for (const domain of [conf.external_env_domain, ...conf.additional_external_env_domains])
    for (const label of conf.allowlisted_origins) exact.push(`https://${label}.${domain}`);
  for (const fqdn of conf.allowlisted_fqdn_origins) exact.push(`https://${fqdn}`);
  return { exact, anyPortHosts: conf.randomport_allowlisted_origins };
}
