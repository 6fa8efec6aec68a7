import { uuidToBytes, version5Uuid } from '../../../shared/uuid.js';
import type { QualifiedId } from '../../api/schemas/common.js';

const words = (uuid: string) => {
  const hex = uuid.replace(/-/g, '');
  return [0, 8, 16, 24].map((i) => Number.parseInt(hex.slice(i, i + 8), 16));
};
const toUuid = (ws: number[]) => {
  const hex = ws.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/**
 * The id of the local 1:1 conversation of two users (wire-server's `addv4`): their UUIDs added
 * word by word modulo 2^32, with the version-4 and variant bits set. Symmetric, so either user
 * finds the same conversation.
 */
export function localOne2OneId(a: string, b: string): string {
  const [x, y] = [words(a), words(b)];
  const sum = x.map((w, i) => (w + y[i]!) >>> 0);
  sum[1] = ((sum[1]! & 0xffff0fff) | 0x4000) >>> 0;
  sum[2] = ((sum[2]! & 0x3fffffff) | 0x80000000) >>> 0;
  return toUuid(sum);
}

export const PROTEUS_ONE2ONE_NAMESPACE = '9a51edb8-060c-0d9a-0c29-50a85d152982';
export const MLS_ONE2ONE_NAMESPACE = '95589dd5-b045-40dc-a6aa-dd9c4fad1c2f';

/**
 * The federation-wide 1:1 id (wire-server's `one2OneConvId`): SHA-256 over the namespace and
 * both users' ASCII ids and domains, ordered by (domain, id), cut to a version-5 UUID; bit 128 of
 * the hash picks the domain that owns the conversation.
 */
export async function one2OneConvId(namespace: string, u1: QualifiedId, u2: QualifiedId): Promise<QualifiedId> {
  const [a, b] = [u1, u2].sort((x, y) =>
    x.domain === y.domain ? (x.id < y.id ? -1 : 1) : x.domain < y.domain ? -1 : 1,
  ) as [QualifiedId, QualifiedId];
  const text = new TextEncoder().encode(`${a.id.toLowerCase()}${a.domain}${b.id.toLowerCase()}${b.domain}`);
  const input = new Uint8Array(16 + text.length);
  input.set(uuidToBytes(namespace)!);
  input.set(text, 16);
  const x = new Uint8Array(await crypto.subtle.digest('SHA-256', input));
  return { id: version5Uuid(x), domain: (x[16]! & 0x80) === 0 ? a.domain : b.domain };
}
