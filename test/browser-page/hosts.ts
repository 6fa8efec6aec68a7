/**
 * Where the page and the backend live, as the web app is deployed against wire-server: the app
 * and the API on one site (`example.com`, the shipped config's domain), so that the zuid cookie,
 * which has no SameSite, is sent to `/access` from the app's requests.
 */
export const HOSTS = {
  /** The page: one of nginz's allowed origins (`allowlisted_origins: [webapp, …]`). */
  app: 'webapp.example.com',
  /** The REST API (nginz). */
  rest: 'nginz-https.example.com',
  /** The notification websocket (nginz, cannon's locations). */
  websocket: 'nginz-ssl.example.com',
} as const;

export const APP_ORIGIN = `https://${HOSTS.app}`;
export const REST_URL = `https://${HOSTS.rest}`;
export const WEBSOCKET_URL = `wss://${HOSTS.websocket}`;
