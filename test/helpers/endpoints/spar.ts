import type { Reply } from '../http.js';
import { type Caller, type Opts, type Query, query, send, v } from './request.js';

// Spar's public endpoints (SCIM tokens, identity providers), one function each.

/** `POST /scim/auth-tokens` */
export function createScimToken(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/scim/auth-tokens`, body, o);
}

/** `GET /scim/auth-tokens` */
export function listScimTokens(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/scim/auth-tokens`, undefined, o);
}

/** `DELETE /scim/auth-tokens?id` */
export function deleteScimToken(base: string, caller: Caller, q: Query<'id'> = {}, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/scim/auth-tokens${query(q)}`, undefined, o);
}

/** `PUT /scim/auth-tokens/{id}` */
export function putScimTokenName(base: string, caller: Caller, id: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/scim/auth-tokens/${id}`, body, o);
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

/** `GET /identity-providers/{idp}` */
export function getIdp(base: string, caller: Caller, idp: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/identity-providers/${idp}`, undefined, o);
}

/** `GET /identity-providers` */
export function getIdps(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/identity-providers`, undefined, o);
}

/** `DELETE /identity-providers/{idp}?purge` */
export function deleteIdp(base: string, caller: Caller, idp: string, q: Query<'purge'> = {}, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/identity-providers/${idp}${query(q)}`, undefined, o);
}

/** `GET /sso/settings` */
export function getSsoSettings(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/sso/settings`, undefined, o);
}
