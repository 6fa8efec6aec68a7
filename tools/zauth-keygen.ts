// npm run zauth:keygen: prints a ZAUTH_KEYS value with one new Ed25519 signing key
// (production: `npm run -s zauth:keygen | wrangler secret put ZAUTH_KEYS`). To rotate, append a
// new key to the existing array and point brig's zauth.keyIndex at it.
import { newZauthKey } from './lib/zauth-keys.js';

console.log(JSON.stringify([await newZauthKey()]));
