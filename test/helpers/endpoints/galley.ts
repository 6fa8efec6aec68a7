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
