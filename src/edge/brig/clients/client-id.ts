/**
 * A client's id is derived from its last-resort prekey: the first 8 bytes of SHA-256 over the
 * `key` text, read big-endian, as lowercase hex without leading zeros. The same last key
 * therefore always names the same client (registering it again updates that client).
 */
export async function clientIdFromLastKey(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key)));
  let n = 0n;
  for (const b of digest.slice(0, 8)) n = (n << 8n) | BigInt(b);
  return n.toString(16);
}
