import { call, type Reply } from '../http.js';

/**
 * What the endpoint functions of this folder share. Each function spells its method and path once,
 * the way wire-server's integration suite has one function per endpoint (`API/Brig.hs`, `Galley.hs`):
 * `getConversation(base, user, qcnv)` sends `GET /v8/conversations/{domain}/{id}` and returns the
 * `Reply`. They assert nothing and add nothing a test did not ask for.
 */

/** Who calls: an access token (`Bearer`), a user with one, or nobody. */
export type Caller = string | { token: string } | undefined;

/** A qualified id, as the API's `qualified_id` objects are. */
export interface Qualified {
  domain: string;
  id: string;
}

export interface Opts {
  /** The API version of the path; 8 when not given. */
  version?: number;
  /** Headers sent as well (they override the caller's authorization). */
  headers?: Record<string, string>;
}

/** An endpoint's query parameters: those given (not undefined) are sent, in their order, URI-encoded. */
export type Query<K extends string> = Partial<Record<K, string | number | boolean | undefined>>;

/** The version prefix of a path. */
export const v = (o?: Opts) => `/v${o?.version ?? 8}`;

/** `?k=v&…` of the parameters given, or nothing. */
export function query(q: Record<string, string | number | boolean | undefined>): string {
  const given = Object.entries(q).filter(([, value]) => value !== undefined);
  if (given.length === 0) return '';
  return `?${given.map(([k, value]) => `${k}=${encodeURIComponent(String(value))}`).join('&')}`;
}

/**
 * Sends a request as `api()` of users.ts does: a JSON body when there is one (bytes are sent as they
 * are, their content type in `headers`), the caller's token as Bearer.
 */
export function send(
  base: string,
  caller: Caller,
  method: string,
  path: string,
  body: unknown,
  o?: Opts,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const token = typeof caller === 'string' ? caller : caller?.token;
  return call(base, path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
      ...o?.headers,
    },
    ...(body === undefined ? {} : { body: body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body) }),
  });
}
