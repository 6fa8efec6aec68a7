/**
 * An ECDSA signature as MLS carries it (DER: a SEQUENCE of the INTEGERs r and s) as WebCrypto
 * verifies it (IEEE P1363: r‖s, each `size` bytes, big-endian). Undefined for anything that is not
 * strict DER of two positive integers that fit, as noble's parser refuses it.
 */
export function derToP1363(der: Uint8Array, size: number): Uint8Array | undefined {
  let at = 0;
  const length = (): number | undefined => {
    const first = der[at++];
    if (first === undefined) return undefined;
    if (first < 0x80) return first;
    // Long form with one length byte (a P-521 signature's 139 bytes), never for what fits the short one.
    if (first !== 0x81) return undefined;
    const n = der[at++];
    return n === undefined || n < 0x80 ? undefined : n;
  };
  if (der[at++] !== 0x30) return undefined;
  const total = length();
  if (total === undefined || at + total !== der.length) return undefined;
  const out = new Uint8Array(2 * size);
  for (let half = 0; half < 2; half++) {
    if (der[at++] !== 0x02) return undefined;
    const n = length();
    if (n === undefined || n === 0 || at + n > der.length) return undefined;
    let int = der.subarray(at, at + n);
    at += n;
    if (int[0]! & 0x80) return undefined; // negative
    if (int[0] === 0 && n > 1) {
      if (!(int[1]! & 0x80)) return undefined; // a leading zero DER does not need
      int = int.subarray(1);
    }
    if (int.length > size) return undefined;
    out.set(int, half * size + size - int.length);
  }
  return at === der.length ? out : undefined;
}
