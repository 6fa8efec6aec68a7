/**
 * The official @wireapp/api-client, as the web app uses it: every request and the /await socket
 * (its own login, cookies `withCredentials`, token refresh, websocket with its ping).
 */
import { APIClient } from '@wireapp/api-client';
import { REST_URL, WEBSOCKET_URL } from './hosts.js';

/**
 * @wireapp/api-client 27.0.0 sends every request that carries cookies unversioned; the web app's
 * current api-client (27.9x) versions them all but `/access` (`/v7/register`, `/v7/login`,
 * `/v7/cookies/remove`). This page sends what the web app sends.
 */
function versionCookieRequestsAsTheWebApp(api: APIClient): void {
  type Config = { url?: string; withCredentials?: boolean };
  const http = api.transport.http as unknown as {
    versionPrefix: string;
    _sendRequest: (config: Config, ...rest: unknown[]) => Promise<unknown>;
  };
  const send = http._sendRequest.bind(http);
  http._sendRequest = (config, ...rest) => {
    const url = config.url ?? '';
    const versioned = config.withCredentials === true && !url.startsWith('/access');
    return send(versioned ? { ...config, url: `${http.versionPrefix}${url}` } : config, ...rest);
  };
}

/** The app starts: it asks the backend which API versions it speaks and uses `version`. */
export async function startApi(version: number): Promise<APIClient> {
  const api = new APIClient({ urls: { name: 'example.com', rest: REST_URL, ws: WEBSOCKET_URL } });
  versionCookieRequestsAsTheWebApp(api);
  const features = await api.useVersion(version, version);
  if (features.version !== version) throw new Error(`backend chose v${features.version}`);
  return api;
}
