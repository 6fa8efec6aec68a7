import type { Reply } from '../http.js';
import { type Caller, type Opts, type Qualified, type Query, query, send, v } from './request.js';

// Galley's public endpoints (conversations, teams, features, legal hold, MLS keys), one function each.

/** `POST /conversations` */
export function postConversation(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/conversations`, body, o);
}

/** `GET /conversations/{conv.domain}/{conv.id}` */
export function getConversation(base: string, caller: Caller, conv: Qualified, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/conversations/${conv.domain}/${conv.id}`, undefined, o);
}

/** `PUT /conversations/{conv.domain}/{conv.id}/name` */
export function putConversationName(
  base: string,
  caller: Caller,
  conv: Qualified,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/conversations/${conv.domain}/${conv.id}/name`, body, o);
}

/** `POST /conversations/{conv}/otr/messages?report_missing&ignore_missing` */
export function postOtrMessage(
  base: string,
  caller: Caller,
  conv: string,
  body?: unknown,
  q: Query<'report_missing' | 'ignore_missing'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/conversations/${conv}/otr/messages${query(q)}`, body, o);
}

/** `PUT /conversations/{conv.domain}/{conv.id}/members/{user.domain}/{user.id}` */
export function updateConversationMember(
  base: string,
  caller: Caller,
  conv: Qualified,
  user: Qualified,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(
    base,
    caller,
    'PUT',
    `${v(o)}/conversations/${conv.domain}/${conv.id}/members/${user.domain}/${user.id}`,
    body,
    o,
  );
}

/** `PUT /conversations/{conv.domain}/{conv.id}/access` */
export function putConversationAccess(
  base: string,
  caller: Caller,
  conv: Qualified,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/conversations/${conv.domain}/${conv.id}/access`, body, o);
}

/** `GET /mls/public-keys?format` */
export function getMLSPublicKeys(base: string, caller: Caller, q: Query<'format'> = {}, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/mls/public-keys${query(q)}`, undefined, o);
}

/** `POST /mls/messages` with MLS bytes (`message/mls`) */
export function postMLSMessage(base: string, caller: Caller, message: Uint8Array, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/mls/messages`, message, o, { 'content-type': 'message/mls' });
}

/** `POST /mls/commit-bundles` with MLS bytes (`message/mls`) */
export function postMLSCommitBundle(base: string, caller: Caller, message: Uint8Array, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/mls/commit-bundles`, message, o, { 'content-type': 'message/mls' });
}

/** `DELETE /teams/{tid}/members/{uid}` */
export function deleteTeamMember(
  base: string,
  caller: Caller,
  tid: string,
  uid: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/teams/${tid}/members/${uid}`, body, o);
}

/** `PUT /teams/{tid}/features/{feature}` */
export function putTeamFeature(
  base: string,
  caller: Caller,
  tid: string,
  feature: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/teams/${tid}/features/${feature}`, body, o);
}

/** `GET /feature-configs` */
export function getFeatureConfigs(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/feature-configs`, undefined, o);
}
