/** Bindings of the edge worker: generated from wrangler.toml by `npm run types`, with the secrets (secrets.d.ts). */
export type Env = Cloudflare.Env;
