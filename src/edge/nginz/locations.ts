import type { NginzConfig, NginzLocation } from '../../shared/config/schemas/nginz.js';

/** nginz's per-path table: the first location whose pattern matches the unversioned path. */
export function findLocation(conf: NginzConfig['nginx_conf'], path: string): NginzLocation | undefined {
  return conf.locations.find((l) => l.path.test(path));
}
