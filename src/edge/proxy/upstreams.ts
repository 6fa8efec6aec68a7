import { proxySecrets, type ProxySecret } from '../../shared/config/proxy-secrets.js';
import type { Config } from '../../shared/config/index.js';
import { configFile } from '../api/config-files.js';

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

let cached: { text: string; secrets: Record<ProxySecret, string> } | undefined;

/** A secret of the proxy's secrets file (parsed once per isolate; the tools checked it before). */
export function proxySecret(env: { SVC_FILES?: string }, config: Config, name: ProxySecret): string {
  const text = configFile(env, config.proxy.secretsConfig);
  if (cached?.text !== text) cached = { text, secrets: proxySecrets(text) };
  return cached.secrets[name];
}
