import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { ApiError } from '../api/errors/api-error.js';
import { commonErrors } from '../api/errors/common.js';
import { self } from '../api/self.js';
import { userStream } from '../events/publish.js';
import type { SocketKind } from '../../shared/notifications/types.js';

/** Hands a websocket upgrade to the caller's notification object, with the session facts in headers. */
export function upgradeToStream(
  c: Context<AppEnv>,
  kind: SocketKind,
  session: { client?: string | undefined; marker?: string | undefined },
): Promise<Response> {
  if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') throw new ApiError(commonErrors.websocketRequired);
  const me = self(c);
  const headers = new Headers(c.req.raw.headers);
  headers.set('x-socket-kind', kind);
  headers.set('z-connection', me.connection);
  headers.set('x-notification-ttl', String(c.get('config').gundeck.settings.notificationTTL));
  headers.delete('z-client');
  if (session.client !== undefined) headers.set('z-client', session.client);
  if (session.marker !== undefined) headers.set('x-sync-marker', session.marker);
  return userStream(c.env, me.user).upgrade(new Request(c.req.raw.url, { headers }));
}
