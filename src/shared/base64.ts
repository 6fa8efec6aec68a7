/** Base64 helpers over bytes (standard alphabet, as Wire's JSON uses them). */

// The runtime's own codec where it has one (workerd does, Node 20 does not): a message's fan-out
// encodes a ciphertext per recipient, and building a binary string byte by byte allocated ten
// times the output.
const native = (Uint8Array.prototype as { toBase64?: (this: Uint8Array, o: { omitPadding: boolean }) => string })
  .toBase64;
const nativeDecode = (Uint8Array as { fromBase64?: (text: string) => Uint8Array }).fromBase64;
/** Bytes per String.fromCharCode call: far below any engine's argument limit. */
const CHUNK = 0x2000;

export function toBase64(bytes: Uint8Array, opts: { pad?: boolean } = {}): string {
  if (native !== undefined) return native.call(bytes, { omitPadding: opts.pad === false });
  let s = '';
  for (let i = 0; i < bytes.length; i += CHUNK)
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  const out = btoa(s);
  return opts.pad === false ? out.replace(/=+$/, '') : out;
}

/** Decodes standard or unpadded base64; `undefined` when the text is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  try {
    const padded = text.padEnd(Math.ceil(text.length / 4) * 4, '=');
    if (nativeDecode !== undefined) return nativeDecode(padded);
    const s = atob(padded);
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Decodes base64url (padded or not, as JWKs carry it); `undefined` when the text is not base64url. */
export function fromBase64url(text: string): Uint8Array | undefined {
  if (/[+/]/.test(text)) return undefined;
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/'));
}
