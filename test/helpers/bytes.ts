/** Byte strings back to back. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Random bytes: what no compression or row holds in less (getRandomValues fills 64 KiB a call). */
export function noise(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let at = 0; at < size; at += 65_536) crypto.getRandomValues(out.subarray(at, Math.min(size, at + 65_536)));
  return out;
}
