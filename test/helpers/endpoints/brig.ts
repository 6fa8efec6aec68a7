import type { Reply } from '../http.js';
import { type Caller, type Opts, type Qualified, type Query, query, send, v } from './request.js';

// Brig's public endpoints (users, clients, connections, login, invitations, key packages…), one function each.

/** `GET /self` */
export function getSelf(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/self`, undefined, o);
}

/** `PUT /self` */
export function putSelf(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/self`, body, o);
}

/** `DELETE /self` */
export function deleteSelf(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/self`, body, o);
}

/** `PUT /self/handle` */
export function putSelfHandle(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/self/handle`, body, o);
}

/** `PUT /self/locale` */
export function putSelfLocale(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/self/locale`, body, o);
}

/** `PUT /self/password` */
export function putSelfPassword(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/self/password`, body, o);
}

/** `DELETE /self/email` */
export function deleteSelfEmail(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/self/email`, undefined, o);
}

/** `PUT /self/supported-protocols` */
export function putSelfSupportedProtocols(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/self/supported-protocols`, body, o);
}

/** `GET /self/consent` */
export function getSelfConsent(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/self/consent`, undefined, o);
}

/** `PUT /self/consent` */
export function putSelfConsent(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/self/consent`, body, o);
}

/** `PUT /users/{uid}/email` */
export function putUserEmail(base: string, caller: Caller, uid: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/users/${uid}/email`, body, o);
}

/** `GET /users/{user.domain}/{user.id}` */
export function getUser(base: string, caller: Caller, user: Qualified, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/users/${user.domain}/${user.id}`, undefined, o);
}

/** `GET /users/{uid}/rich-info` */
export function getUserRichInfo(base: string, caller: Caller, uid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/users/${uid}/rich-info`, undefined, o);
}

/** `GET /users/{user.domain}/{user.id}/clients` */
export function getUserClients(base: string, caller: Caller, user: Qualified, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/users/${user.domain}/${user.id}/clients`, undefined, o);
}

/** `GET /users/{user.domain}/{user.id}/clients/{client}` */
export function getUserClient(base: string, caller: Caller, user: Qualified, client: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/users/${user.domain}/${user.id}/clients/${client}`, undefined, o);
}

/** `GET /users/{user.domain}/{user.id}/prekeys` */
export function getUserPrekeyBundle(base: string, caller: Caller, user: Qualified, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/users/${user.domain}/${user.id}/prekeys`, undefined, o);
}

/** `GET /users/{user.domain}/{user.id}/prekeys/{client}` */
export function getUserClientPrekey(
  base: string,
  caller: Caller,
  user: Qualified,
  client: string,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/users/${user.domain}/${user.id}/prekeys/${client}`, undefined, o);
}

/** `GET /users/{user.domain}/{user.id}/supported-protocols` */
export function getUserSupportedProtocols(base: string, caller: Caller, user: Qualified, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/users/${user.domain}/${user.id}/supported-protocols`, undefined, o);
}

/** `POST /list-users` */
export function listUsers(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/list-users`, body, o);
}

/** `POST /users/list-clients` */
export function listUsersClients(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/users/list-clients`, body, o);
}

/** `POST /users/list-prekeys` */
export function listUsersPrekeys(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/users/list-prekeys`, body, o);
}

/** `POST /register` */
export function postRegister(base: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'POST', `${v(o)}/register`, body, o);
}

/** `POST /login?persist` */
export function postLogin(base: string, body?: unknown, q: Query<'persist'> = {}, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'POST', `${v(o)}/login${query(q)}`, body, o);
}

/** `POST /access?client_id` with the zuid cookie */
export function postAccess(
  base: string,
  caller: Caller,
  cookie: string | undefined,
  q: Query<'client_id'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/access${query(q)}`, undefined, o, cookie === undefined ? {} : { cookie });
}

/** `POST /access/logout` with the zuid cookie */
export function postLogout(base: string, caller: Caller, cookie: string | undefined, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/access/logout`, undefined, o, cookie === undefined ? {} : { cookie });
}

/** `POST /activate/send` */
export function postActivateSend(base: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'POST', `${v(o)}/activate/send`, body, o);
}

/** `POST /activate` */
export function postActivate(base: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'POST', `${v(o)}/activate`, body, o);
}

/** `POST /password-reset` */
export function postPasswordReset(base: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'POST', `${v(o)}/password-reset`, body, o);
}

/** `POST /password-reset/complete` */
export function postPasswordResetComplete(base: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'POST', `${v(o)}/password-reset/complete`, body, o);
}

/** `POST /verification-code/send` */
export function postVerificationCodeSend(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/verification-code/send`, body, o);
}

/** `GET /clients` */
export function getSelfClients(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/clients`, undefined, o);
}

/** `POST /clients` */
export function postClient(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/clients`, body, o);
}

/** `GET /clients/{client}` */
export function getClient(base: string, caller: Caller, client: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/clients/${client}`, undefined, o);
}

/** `PUT /clients/{client}` */
export function putClient(base: string, caller: Caller, client: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/clients/${client}`, body, o);
}

/** `DELETE /clients/{client}` */
export function deleteClient(base: string, caller: Caller, client: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/clients/${client}`, body, o);
}

/** `GET /clients/{client}/prekeys` */
export function getClientPrekeys(base: string, caller: Caller, client: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/clients/${client}/prekeys`, undefined, o);
}

/** `POST /connections/{user.domain}/{user.id}` */
export function postConnection(base: string, caller: Caller, user: Qualified, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/connections/${user.domain}/${user.id}`, undefined, o);
}

/** `PUT /connections/{user.domain}/{user.id}` */
export function putConnection(base: string, caller: Caller, user: Qualified, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/connections/${user.domain}/${user.id}`, body, o);
}

/** `GET /connections/{user.domain}/{user.id}` */
export function getConnection(base: string, caller: Caller, user: Qualified, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/connections/${user.domain}/${user.id}`, undefined, o);
}

/** `POST /list-connections` */
export function listConnections(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/list-connections`, body, o);
}

/** `GET /search/contacts?q&domain&size` */
export function searchContacts(
  base: string,
  caller: Caller,
  q: Query<'q' | 'domain' | 'size'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/search/contacts${query(q)}`, undefined, o);
}

/** `POST /teams/{tid}/invitations` */
export function postTeamInvitation(
  base: string,
  caller: Caller,
  tid: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/teams/${tid}/invitations`, body, o);
}

/** `GET /teams/{tid}/invitations` */
export function getTeamInvitations(base: string, caller: Caller, tid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}/invitations`, undefined, o);
}

/** `DELETE /teams/{tid}/invitations/{inv}` */
export function deleteTeamInvitation(base: string, caller: Caller, tid: string, inv: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/teams/${tid}/invitations/${inv}`, undefined, o);
}

/** `POST /teams/invitations/accept` */
export function acceptTeamInvitation(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/teams/invitations/accept`, body, o);
}

/** `HEAD /teams/invitations/by-email?email` */
export function headInvitationByEmail(base: string, caller: Caller, q: Query<'email'> = {}, o?: Opts): Promise<Reply> {
  return send(base, caller, 'HEAD', `${v(o)}/teams/invitations/by-email${query(q)}`, undefined, o);
}

/** `GET /teams/invitations/info?code` */
export function getInvitationInfo(base: string, caller: Caller, q: Query<'code'> = {}, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/invitations/info${query(q)}`, undefined, o);
}

/** `GET /teams/{tid}/size` */
export function getTeamSize(base: string, caller: Caller, tid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}/size`, undefined, o);
}

/** `POST /mls/key-packages/self/{client}` */
export function uploadKeyPackages(
  base: string,
  caller: Caller,
  client: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/mls/key-packages/self/${client}`, body, o);
}

/** `POST /mls/key-packages/claim/{user.domain}/{user.id}?ciphersuite` */
export function claimKeyPackages(
  base: string,
  caller: Caller,
  user: Qualified,
  q: Query<'ciphersuite'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(
    base,
    caller,
    'POST',
    `${v(o)}/mls/key-packages/claim/${user.domain}/${user.id}${query(q)}`,
    undefined,
    o,
  );
}

/** `GET /mls/key-packages/self/{client}/count?ciphersuite` */
export function countKeyPackages(
  base: string,
  caller: Caller,
  client: string,
  q: Query<'ciphersuite'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/mls/key-packages/self/${client}/count${query(q)}`, undefined, o);
}

/** `DELETE /mls/key-packages/self/{client}?ciphersuite` */
export function deleteKeyPackages(
  base: string,
  caller: Caller,
  client: string,
  body?: unknown,
  q: Query<'ciphersuite'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/mls/key-packages/self/${client}${query(q)}`, body, o);
}

/** `PUT /mls/key-packages/self/{client}?ciphersuites` */
export function replaceKeyPackages(
  base: string,
  caller: Caller,
  client: string,
  body?: unknown,
  q: Query<'ciphersuites'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/mls/key-packages/self/${client}${query(q)}`, body, o);
}

/** `GET /calls/config/v2?limit` */
export function getCallsConfigV2(base: string, caller: Caller, q: Query<'limit'> = {}, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/calls/config/v2${query(q)}`, undefined, o);
}

/** `GET /calls/config` */
export function getCallsConfig(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/calls/config`, undefined, o);
}

/** `GET /cookies?labels` */
export function getCookies(base: string, caller: Caller, q: Query<'labels'> = {}, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/cookies${query(q)}`, undefined, o);
}

/** `POST /cookies/remove` */
export function removeCookies(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/cookies/remove`, body, o);
}

/** `POST /delete` */
export function postDelete(base: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'POST', `${v(o)}/delete`, body, o);
}

/** `POST /upgrade-personal-to-team` */
export function upgradePersonalToTeam(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/upgrade-personal-to-team`, body, o);
}

/** `HEAD /handles/{handle}` */
export function headHandle(base: string, caller: Caller, handle: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'HEAD', `${v(o)}/handles/${handle}`, undefined, o);
}

/** `GET /handles/{handle}` */
export function getHandle(base: string, caller: Caller, handle: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/handles/${handle}`, undefined, o);
}

/** `POST /handles` */
export function checkHandles(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/handles`, body, o);
}

/** `POST /oauth/authorization/codes` */
export function postOAuthCode(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/oauth/authorization/codes`, body, o);
}

/** `GET /oauth/applications` */
export function getOAuthApplications(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/oauth/applications`, undefined, o);
}

/** `GET /oauth/clients/{client}` */
export function getOAuthClient(base: string, caller: Caller, client: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/oauth/clients/${client}`, undefined, o);
}

/** `POST /provider/register` */
export function postProviderRegister(base: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'POST', `${v(o)}/provider/register`, body, o);
}

/** `POST /provider/login` */
export function postProviderLogin(base: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'POST', `${v(o)}/provider/login`, body, o);
}

/** `GET /provider/activate?key&code` */
export function getProviderActivate(base: string, q: Query<'key' | 'code'> = {}, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'GET', `${v(o)}/provider/activate${query(q)}`, undefined, o);
}

/** `GET /provider` with the provider's cookie */
export function getProvider(base: string, cookie: string | undefined, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'GET', `${v(o)}/provider`, undefined, o, cookie === undefined ? {} : { cookie });
}

/** `PUT /provider` with the provider's cookie */
export function putProvider(base: string, cookie: string | undefined, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'PUT', `${v(o)}/provider`, body, o, cookie === undefined ? {} : { cookie });
}

/** `DELETE /provider` with the provider's cookie */
export function deleteProvider(base: string, cookie: string | undefined, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'DELETE', `${v(o)}/provider`, body, o, cookie === undefined ? {} : { cookie });
}

/** `POST /provider/services` with the provider's cookie */
export function postProviderService(
  base: string,
  cookie: string | undefined,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, undefined, 'POST', `${v(o)}/provider/services`, body, o, cookie === undefined ? {} : { cookie });
}

/** `GET /provider/services/{sid}` with the provider's cookie */
export function getProviderOwnService(base: string, cookie: string | undefined, sid: string, o?: Opts): Promise<Reply> {
  return send(
    base,
    undefined,
    'GET',
    `${v(o)}/provider/services/${sid}`,
    undefined,
    o,
    cookie === undefined ? {} : { cookie },
  );
}

/** `PUT /provider/services/{sid}` with the provider's cookie */
export function putProviderService(
  base: string,
  cookie: string | undefined,
  sid: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(
    base,
    undefined,
    'PUT',
    `${v(o)}/provider/services/${sid}`,
    body,
    o,
    cookie === undefined ? {} : { cookie },
  );
}

/** `DELETE /provider/services/{sid}` with the provider's cookie */
export function deleteProviderService(
  base: string,
  cookie: string | undefined,
  sid: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(
    base,
    undefined,
    'DELETE',
    `${v(o)}/provider/services/${sid}`,
    body,
    o,
    cookie === undefined ? {} : { cookie },
  );
}

/** `PUT /provider/services/{sid}/connection` with the provider's cookie */
export function putProviderServiceConnection(
  base: string,
  cookie: string | undefined,
  sid: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(
    base,
    undefined,
    'PUT',
    `${v(o)}/provider/services/${sid}/connection`,
    body,
    o,
    cookie === undefined ? {} : { cookie },
  );
}

/** `PUT /provider/password` with the provider's cookie */
export function putProviderPassword(
  base: string,
  cookie: string | undefined,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, undefined, 'PUT', `${v(o)}/provider/password`, body, o, cookie === undefined ? {} : { cookie });
}

/** `PUT /provider/email` with the provider's cookie */
export function putProviderEmail(base: string, cookie: string | undefined, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'PUT', `${v(o)}/provider/email`, body, o, cookie === undefined ? {} : { cookie });
}

/** `GET /services?tags&start` */
export function getServices(base: string, caller: Caller, q: Query<'tags' | 'start'> = {}, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/services${query(q)}`, undefined, o);
}

/** `GET /providers/{pid}/services/{sid}` */
export function getProviderService(base: string, caller: Caller, pid: string, sid: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/providers/${pid}/services/${sid}`, undefined, o);
}

/** `POST /domain-verification/{domain}/authorize-team` */
export function authorizeTeamDomain(
  base: string,
  caller: Caller,
  domain: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/domain-verification/${domain}/authorize-team`, body, o);
}

/** `GET /system/settings` */
export function getSystemSettings(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/system/settings`, undefined, o);
}

/** `GET /teams/{tid}/search?q&size&sortby&pagingState` */
export function getTeamSearch(
  base: string,
  caller: Caller,
  tid: string,
  q: Query<'q' | 'size' | 'sortby' | 'pagingState'> = {},
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/teams/${tid}/search${query(q)}`, undefined, o);
}

/** `PUT /properties/{key}` */
export function putProperty(base: string, caller: Caller, key: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/properties/${key}`, body, o);
}

/** `GET /properties/{key}` */
export function getProperty(base: string, caller: Caller, key: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/properties/${key}`, undefined, o);
}

/** `DELETE /properties/{key}` */
export function deleteProperty(base: string, caller: Caller, key: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/properties/${key}`, undefined, o);
}

/** `GET /properties` */
export function getPropertyKeys(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/properties`, undefined, o);
}

/** `DELETE /properties` */
export function deleteProperties(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/properties`, undefined, o);
}

/** `GET /properties-values` */
export function getPropertyValues(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/properties-values`, undefined, o);
}

/** `GET /bot/self` */
export function getBotSelf(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/bot/self`, undefined, o);
}

/** `DELETE /bot/self` */
export function deleteBotSelf(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/bot/self`, undefined, o);
}

/** `GET /bot/client` */
export function getBotClient(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/bot/client`, undefined, o);
}

/** `GET /bot/conversation` */
export function getBotConversation(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/bot/conversation`, undefined, o);
}

/** `GET /bot/client/prekeys` */
export function getBotPrekeyIds(base: string, caller: Caller, o?: Opts): Promise<Reply> {
  return send(base, caller, 'GET', `${v(o)}/bot/client/prekeys`, undefined, o);
}

/** `POST /bot/client/prekeys` */
export function postBotPrekeys(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/bot/client/prekeys`, body, o);
}

/** `POST /bot/users/prekeys` */
export function postBotUsersPrekeys(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/bot/users/prekeys`, body, o);
}

/** `POST /bot/messages` */
export function postBotMessage(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/bot/messages`, body, o);
}

/** `POST /bot/conversations/{conv}` */
export function postConversationBot(
  base: string,
  caller: Caller,
  conv: string,
  body?: unknown,
  o?: Opts,
): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/bot/conversations/${conv}`, body, o);
}

/** `DELETE /bot/conversations/{conv}/{bot}` */
export function removeBot(base: string, caller: Caller, conv: string, bot: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/bot/conversations/${conv}/${bot}`, undefined, o);
}
