import type { Reply } from '../http.js';
import { type Caller, type Opts, send, v } from './request.js';

// Cargohold's public endpoints (asset tokens), one function each.

/** `POST /assets/{key}/token` */
export function postAssetToken(base: string, caller: Caller, key: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'POST', `${v(o)}/assets/${key}/token`, undefined, o);
}

/** `DELETE /assets/{key}/token` */
export function deleteAssetToken(base: string, caller: Caller, key: string, o?: Opts): Promise<Reply> {
  return send(base, caller, 'DELETE', `${v(o)}/assets/${key}/token`, undefined, o);
}
