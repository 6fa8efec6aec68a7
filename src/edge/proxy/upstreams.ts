import { proxySecrets, type ProxySecret } from '../../shared/config/proxy-secrets.js';
import type { Config } from '../../shared/config/index.js';
import { fromConfigFile } from '../api/config-files.js';

export type Upstream =
  | 'giphyEndpoint'
  | 'youtubeEndpoint'
  | 'googleMapsEndpoint'
  | 'spotifyEndpoint'
  | 'soundcloudEndpoint';

/** The base URL of a third-party API, as configured (`https://host:port`, plain HTTP only in tests). */
export function upstreamBase(config: Config, upstream: Upstream): URL {
  const { host, port } = config.proxy[upstream];
  return new URL(`${config.proxy.disableTlsForTest ? 'http' : 'https'}://${host}:${port}`);
}

/** A secret of the proxy's secrets file (parsed once per isolate; the tools checked it before). */
export function proxySecret(env: { SVC_FILES?: string }, config: Config, name: ProxySecret): string {
  return fromConfigFile(env, config.proxy.secretsConfig, proxySecrets)[name];
}
