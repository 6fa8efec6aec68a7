import { toHex } from './hex.js';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the text is a UUID in its 36-character form, of any version, in either case. */
export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}

/** The 16 bytes of a UUID's text form; `undefined` when the text is not a UUID. */
export function uuidToBytes(text: string): Uint8Array | undefined {
  if (!isUuid(text)) return undefined;
  const hex = text.replace(/-/g, '');
  return Uint8Array.from({ length: 16 }, (_, i) => Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16));
}

/** The lowercase text form of a UUID's 16 bytes. */
export function uuidFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new Error(`a UUID has 16 bytes, not ${bytes.length}`);
  const hex = toHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The first 16 bytes of a hash as a version-5 UUID: the version and variant bits set, the rest kept. */
export function version5Uuid(hash: Uint8Array): string {
  const id = hash.slice(0, 16);
  id[6] = (id[6]! & 0x0f) | 0x50;
  id[8] = (id[8]! & 0x3f) | 0x80;
  return uuidFromBytes(id);
}

/**
 * The name-based UUID of RFC 4122 version 5: SHA-1 over the namespace's 16 bytes and the name
 * (Haskell's `Data.UUID.V5.generateNamed`).
 */
export async function uuidV5(namespace: string, name: Uint8Array): Promise<string> {
  const ns = uuidToBytes(namespace);
  if (ns === undefined) throw new Error(`not a UUID namespace: ${namespace}`);
  const input = new Uint8Array(16 + name.length);
  input.set(ns);
  input.set(name, 16);
  return version5Uuid(new Uint8Array(await crypto.subtle.digest('SHA-1', input)));
}
