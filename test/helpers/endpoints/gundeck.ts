import type { Reply } from '../http.js';
import { type Caller, type Opts, type Query, query, send, v } from './request.js';

// Gundeck's public endpoints (notifications, push tokens), one function each.

/** `GET /notifications?since&client&size` */
export function getNotifications(
  base: string,
  caller: Caller,
  q: Query<'since' | 'client' | 'size'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/notifications${query(q)}`, undefined, o);
}

/** `GET /notifications/last?client` */
export function getLastNotification(base: string, caller: Caller, q: Query<'client'> = {}, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/notifications/last${query(q)}`, undefined, o);
}

/** `GET /notifications/{id}?client` */
export function getNotification(
  base: string,
  caller: Caller,
  id: string,
  q: Query<'client'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/notifications/${id}${query(q)}`, undefined, o);
}

/** `POST /push/tokens` */
export function postPushToken(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/push/tokens`, body, o);
}

/** `GET /push/tokens` */
export function getPushTokens(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/push/tokens`, undefined, o);
}

/** `DELETE /push/tokens/{token}` */
export function deletePushToken(base: string, caller: Caller, token: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/push/tokens/${token}`, undefined, o);
}
