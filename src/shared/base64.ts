/** Base64 helpers over bytes (standard alphabet, as Wire's JSON uses them). */
export function toBase64(bytes: Uint8Array, opts: { pad?: boolean } = {}): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  const out = btoa(s);
  return opts.pad === false ? out.replace(/=+$/, '') : out;
}

/** Decodes standard or unpadded base64; `undefined` when the text is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  try {
    const s = atob(text.padEnd(Math.ceil(text.length / 4) * 4, '='));
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
