import type { RateLimiter } from '../objects/RateLimiter.js';
import type { Conversation } from '../objects/Conversation.js';
import type { NotificationShard } from '../objects/NotificationShard.js';

/** Bindings of the edge worker, as declared in wrangler.toml. */
export interface Env {
  /** JSON object: component file name → YAML text (see tools/lib/config-dir.ts). */
  SVC_CONFIG: string;
  /** JSON array of Ed25519 private JWKs signing tokens and cookies (see src/edge/auth/keys.ts). */
  ZAUTH_KEYS: string;
  DB: D1Database;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  /** Users' notification streams and websockets, in shards (see objects/notifications/sharding.ts). */
  NOTIFICATIONS: DurableObjectNamespace<NotificationShard>;
  /** How many notification shards (wrangler.toml); never changed on a running deployment. */
  NOTIFICATION_SHARDS?: string;
  /** Conversation events for the Cells service (see galley/conversations/cells.ts). */
  CELLS_EVENTS?: Queue<unknown>;
  /** One object per conversation: the ordering point of its messages. */
  CONVERSATIONS: DurableObjectNamespace<Conversation>;
  /** Object storage credentials of cargohold's bucket (secrets). */
  AWS_ACCESS_KEY_ID?: string;
  AWS_SECRET_ACCESS_KEY?: string;
}
