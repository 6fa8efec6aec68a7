import type { Reply } from '../http.js';
import { type Caller, type Opts, type Query, query, send, v } from './request.js';

// Spar's public endpoints (SCIM tokens, identity providers), one function each.

/** `POST /scim/auth-tokens` */
export function createScimToken(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/scim/auth-tokens`, body, o);
}

/** `POST /identity-providers?api_version&handle` */
export function createIdp(
  base: string,
  caller: Caller,
  body?: unknown,
  q: Query<'api_version' | 'handle'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/identity-providers${query(q)}`, body, o);
}
