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

/** `POST /conversations/list-ids` */
export function listConversationIds(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/conversations/list-ids`, body, o);
}

/** `POST /conversations/list` */
export function listConversations(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/conversations/list`, body, o);
}

/** `GET /conversations/mls-self` */
export function getSelfConversation(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/conversations/mls-self`, undefined, o);
}

/** `POST /conversations/self` */
export function postSelfConversation(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/conversations/self`, undefined, o);
}

/** `POST /one2one-conversations` */
export function postOne2OneConversation(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/one2one-conversations`, body, o);
}

/** `GET /one2one-conversations/{user.domain}/{user.id}?format` */
export function getOne2OneConversation(
  base: string,
  caller: Caller,
  user: Qualified,
  q: Query<'format'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/one2one-conversations/${user.domain}/${user.id}${query(q)}`, undefined, o);
}

/** `POST /conversations/{conv}/code` */
export function postConversationCode(
  base: string,
  caller: Caller,
  conv: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/conversations/${conv}/code`, body, o);
}

/** `GET /conversations/{conv}/code` */
export function getConversationCode(base: string, caller: Caller, conv: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/conversations/${conv}/code`, undefined, o);
}

/** `DELETE /conversations/{conv}/code` */
export function deleteConversationCode(base: string, caller: Caller, conv: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/conversations/${conv}/code`, undefined, o);
}

/** `GET /conversations/join?key&code` */
export function getJoinCodeConv(base: string, caller: Caller, q: Query<'key' | 'code'> = {}, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/conversations/join${query(q)}`, undefined, o);
}

/** `POST /conversations/join` */
export function joinConversation(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/conversations/join`, body, o);
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

/** `POST /conversations/{conv.domain}/{conv.id}/members` */
export function addMembers(base: string, caller: Caller, conv: Qualified, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/conversations/${conv.domain}/${conv.id}/members`, body, o);
}

/** `DELETE /conversations/{conv.domain}/{conv.id}/members/{user.domain}/{user.id}` */
export function removeMember(base: string, caller: Caller, conv: Qualified, user: Qualified, o?: Opts): Promise<Reply> {
  return send(
    base,
    caller,
    'DELETE',
    `${v(o)}/conversations/${conv.domain}/${conv.id}/members/${user.domain}/${user.id}`,
    undefined,
    o,
  );
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

/** `PUT /conversations/{conv.domain}/{conv.id}/add-permission` */
export function putConversationAddPermission(
  base: string,
  caller: Caller,
  conv: Qualified,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/conversations/${conv.domain}/${conv.id}/add-permission`, body, o);
}

/** `PUT /conversations/{conv.domain}/{conv.id}/receipt-mode` */
export function putConversationReceiptMode(
  base: string,
  caller: Caller,
  conv: Qualified,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/conversations/${conv.domain}/${conv.id}/receipt-mode`, body, o);
}

/** `PUT /conversations/{conv.domain}/{conv.id}/message-timer` */
export function putConversationMessageTimer(
  base: string,
  caller: Caller,
  conv: Qualified,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/conversations/${conv.domain}/${conv.id}/message-timer`, body, o);
}

/** `PUT /conversations/{conv.domain}/{conv.id}/protocol` */
export function putConversationProtocol(
  base: string,
  caller: Caller,
  conv: Qualified,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/conversations/${conv.domain}/${conv.id}/protocol`, body, o);
}

/** `POST /conversations/{conv.domain}/{conv.id}/typing` */
export function postTypingStatus(
  base: string,
  caller: Caller,
  conv: Qualified,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/conversations/${conv.domain}/${conv.id}/typing`, body, o);
}

/** `GET /conversations/{conv.domain}/{conv.id}/subconversations/{sub}` */
export function getSubConversation(
  base: string,
  caller: Caller,
  conv: Qualified,
  sub: string,
  o?: Opts,
): Promise<Reply> {
  return send(
    base,
    caller,
    'GET',
    `${v(o)}/conversations/${conv.domain}/${conv.id}/subconversations/${sub}`,
    undefined,
    o,
  );
}

/** `GET /conversations/{conv.domain}/{conv.id}/groupinfo` */
export function getGroupInfo(base: string, caller: Caller, conv: Qualified, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/conversations/${conv.domain}/${conv.id}/groupinfo`, undefined, o);
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

/** `GET /teams/{tid}` */
export function getTeam(base: string, caller: Caller, tid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}`, undefined, o);
}

/** `PUT /teams/{tid}` */
export function putTeam(base: string, caller: Caller, tid: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/teams/${tid}`, body, o);
}

/** `DELETE /teams/{tid}` */
export function deleteTeam(base: string, caller: Caller, tid: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/teams/${tid}`, body, o);
}

/** `GET /teams/{tid}/members` */
export function getTeamMembers(base: string, caller: Caller, tid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}/members`, undefined, o);
}

/** `GET /teams/{tid}/members/{uid}` */
export function getTeamMember(base: string, caller: Caller, tid: string, uid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}/members/${uid}`, undefined, o);
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

/** `PUT /teams/{tid}/members` */
export function updateTeamMember(base: string, caller: Caller, tid: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/teams/${tid}/members`, body, o);
}

/** `POST /teams/{tid}/get-members-by-ids-using-post` */
export function getTeamMembersByIds(
  base: string,
  caller: Caller,
  tid: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/teams/${tid}/get-members-by-ids-using-post`, body, o);
}

/** `GET /teams/{tid}/conversations` */
export function getTeamConversations(base: string, caller: Caller, tid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}/conversations`, undefined, o);
}

/** `GET /teams/{tid}/conversations/{conv}` */
export function getTeamConversation(base: string, caller: Caller, tid: string, conv: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}/conversations/${conv}`, undefined, o);
}

/** `DELETE /teams/{tid}/conversations/{conv}` */
export function deleteTeamConversation(
  base: string,
  caller: Caller,
  tid: string,
  conv: string,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/teams/${tid}/conversations/${conv}`, undefined, o);
}

/** `GET /teams/{tid}/features` */
export function getTeamFeatures(base: string, caller: Caller, tid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}/features`, undefined, o);
}

/** `GET /teams/{tid}/features/{feature}` */
export function getTeamFeature(base: string, caller: Caller, tid: string, feature: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}/features/${feature}`, undefined, o);
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

/** `POST /teams/{tid}/legalhold/settings` */
export function postLegalholdSettings(
  base: string,
  caller: Caller,
  tid: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/teams/${tid}/legalhold/settings`, body, o);
}

/** `GET /teams/{tid}/legalhold/settings` */
export function getLegalholdSettings(base: string, caller: Caller, tid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}/legalhold/settings`, undefined, o);
}

/** `POST /teams/{tid}/legalhold/consent` */
export function postLegalholdConsent(base: string, caller: Caller, tid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/teams/${tid}/legalhold/consent`, undefined, o);
}

/** `GET /teams/{tid}/legalhold/{uid}` */
export function getLegalholdStatus(base: string, caller: Caller, tid: string, uid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}/legalhold/${uid}`, undefined, o);
}

/** `POST /teams/{tid}/legalhold/{uid}` */
export function postLegalholdRequest(base: string, caller: Caller, tid: string, uid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/teams/${tid}/legalhold/${uid}`, undefined, o);
}
