/** The first 8 bytes of SHA-256 over the text, read big-endian, as lowercase hex without leading zeros. */
async function hashedClientId(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let n = 0n;
  for (const b of digest.slice(0, 8)) n = (n << 8n) | BigInt(b);
  return n.toString(16);
}

/**
 * A client's id is derived from its last-resort prekey's `key` text: the same last key always
 * names the same client (registering it again updates that client).
 */
export const clientIdFromLastKey = (key: string): Promise<string> => hashedClientId(key);

/** A bot's one client is named after the bot (wire hashes the bot's id too). */
export const botClientId = (bot: string): Promise<string> => hashedClientId(bot);
