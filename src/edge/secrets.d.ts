// The worker's secrets (`wrangler secret put`; set by tools/start.ts locally). wrangler.toml does not
// name them, so the Env that `npm run types` generates from it is completed here.
declare namespace Cloudflare {
  interface Env {
    /** JSON object: component file name → YAML text (see tools/lib/config-dir.ts). */
    SVC_CONFIG: string;
    /** JSON array of Ed25519 private JWKs signing tokens and cookies (see src/edge/auth/keys.ts). */
    ZAUTH_KEYS: string;
    /** JSON: MLS signature scheme → private JWK of the removal key (see tools/mls-removal-keys.ts); with MLS on. */
    MLS_REMOVAL_KEYS?: string;
    /** JSON: configured path → text of each file the configuration names (see tools/lib/config-files.ts). */
    SVC_FILES?: string;
    /** Object storage credentials of cargohold's bucket. */
    AWS_ACCESS_KEY_ID?: string;
    AWS_SECRET_ACCESS_KEY?: string;
    /** The back office's (stern's) basic auth users, `user:password` per line; without it stern is off. */
    STERN_CREDENTIALS?: string;
    /** Credentials of gundeck's native push adapter (Amazon SNS), with its `aws` configuration. */
    SNS_ACCESS_KEY_ID?: string;
    SNS_SECRET_ACCESS_KEY?: string;
    /**
     * Shared with a federator on another host: sent as the bearer of calls to it, and required of
     * its calls on federator.yaml's `workerInternal` host (see src/edge/federation/).
     */
    FEDERATOR_INTERNAL_TOKEN?: string;
    /** Crash tests only: where the worker stops and waits to be killed (see src/shared/fault-point.ts). */
    FAULT_POINT?: string;
  }
}
