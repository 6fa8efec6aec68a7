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
