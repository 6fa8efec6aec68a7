// The Durable Objects' own worker (wrangler.objects.toml). The edge reaches them through bindings
// naming this script, so an object's isolate holds only this small bundle, not the edge's routes,
// schemas and docs: a smaller heap is a shorter stop-the-world collection under fan-out.
export { RateLimiter } from './RateLimiter.js';
export { NotificationShard } from './NotificationShard.js';
export { Conversation } from './Conversation.js';
export { MetricsCollector } from './MetricsCollector.js';
export { Account } from './Account.js';

/** Objects are reached only through their bindings; the script itself serves nothing. */
export default {
  fetch: () => new Response(null, { status: 404 }),
} satisfies ExportedHandler<Env>;
