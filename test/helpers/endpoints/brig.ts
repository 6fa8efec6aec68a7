import type { Reply } from '../http.js';
import { type Caller, type Opts, type Qualified, type Query, query, send, v } from './request.js';

// Brig's public endpoints (users, clients, connections, login, invitations, key packages…), one function each.

/** `PUT /self/handle` */
export function putSelfHandle(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/self/handle`, body, o);
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

/** `POST /activate/send` */
export function postActivateSend(base: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, undefined, 'POST', `${v(o)}/activate/send`, body, o);
}

/** `POST /clients` */
export function postClient(base: string, caller: Caller, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/clients`, body, o);
}

/** `PUT /clients/{client}` */
export function putClient(base: string, caller: Caller, client: string, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/clients/${client}`, body, o);
}

/** `POST /connections/{user.domain}/{user.id}` */
export function postConnection(base: string, caller: Caller, user: Qualified, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/connections/${user.domain}/${user.id}`, undefined, o);
}

/** `PUT /connections/{user.domain}/{user.id}` */
export function putConnection(base: string, caller: Caller, user: Qualified, body?: unknown, o?: Opts): Promise<Reply> {
  return send(base, caller, 'PUT', `${v(o)}/connections/${user.domain}/${user.id}`, body, o);
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
