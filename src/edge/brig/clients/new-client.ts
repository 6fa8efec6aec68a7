import { z } from '@hono/zod-openapi';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { clientCapability, clientClass, clientType, mlsPublicKeys } from './client-json.js';
import { LAST_RESORT_ID, isValidPrekey, prekey, type Prekey } from '../../api/schemas/prekeys.js';

export const newClient = z
  .object({
    type: clientType,
    prekeys: z.array(prekey),
    lastkey: prekey,
    password: z.string().min(6).max(1024).optional(),
    class: clientClass.optional(),
    label: z.string().optional(),
    model: z.string().optional(),
    cookie: z.string().optional(),
    capabilities: z.array(clientCapability).optional(),
    mls_public_keys: mlsPublicKeys.optional(),
    verification_code: z.string().optional(),
  })
  .openapi('NewClient');

export const updateClient = z
  .object({
    label: z.string().optional(),
    prekeys: z.array(prekey).optional(),
    lastkey: prekey.optional(),
    capabilities: z.array(clientCapability).optional(),
    mls_public_keys: mlsPublicKeys.optional(),
  })
  .openapi('UpdateClient');

/** Prekeys must be Proteus bundles for their ids; the last key must be the last-resort key (65535). */
export function checkPrekeys(keys: readonly Prekey[], lastkey: Prekey | undefined): void {
  if (lastkey !== undefined && lastkey.id !== LAST_RESORT_ID)
    throw new ApiError(brigErrors.malformedPrekeys, 'Invalid last prekey ID');
  const all = lastkey === undefined ? keys : [...keys, lastkey];
  if (!all.every(isValidPrekey)) throw new ApiError(brigErrors.malformedPrekeys);
}

/** Capabilities `consumable-notifications` can be named only from v8 on. */
export function checkCapabilities(caps: readonly string[] | undefined, version: number | undefined): void {
  if (caps?.includes('consumable-notifications') && (version ?? 0) < 8)
    throw new ApiError(brigErrors.malformedCapabilities);
}
