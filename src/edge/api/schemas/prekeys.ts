import { z } from '@hono/zod-openapi';
import { decode } from 'cborg';
import { fromBase64 } from '../../../shared/base64.js';

export { LAST_RESORT_ID } from '../../../shared/accounts/material.js';

export const prekey = z.object({ id: z.int().min(0).max(65535), key: z.string().min(1) }).openapi('Prekey');
export type Prekey = z.infer<typeof prekey>;

/**
 * Whether the key is a Proteus prekey bundle for this id: base64 of a CBOR map whose entry 1 is
 * the prekey id and whose entries 2 and 3 hold the public and identity keys.
 */
export function isValidPrekey(p: Prekey): boolean {
  const bytes = fromBase64(p.key);
  if (bytes === undefined || bytes.length === 0) return false;
  try {
    const bundle: unknown = decode(bytes, { useMaps: true });
    if (!(bundle instanceof Map)) return false;
    const publicKey = bundle.get(2);
    const identity = bundle.get(3);
    return bundle.get(1) === p.id && publicKey instanceof Map && identity instanceof Map;
  } catch {
    return false;
  }
}
