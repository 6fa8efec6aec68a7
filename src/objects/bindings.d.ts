// Bindings only the objects' worker has (wrangler.objects.toml). `npm run types` takes the Env of
// wrangler.toml alone, so they are added here, optional: the edge's Env has none of them.
declare namespace Cloudflare {
  interface Env {
    /**
     * The native push queues the notification objects feed (the edge consumes them): NATIVE_PUSH,
     * then NATIVE_PUSH_1, … as many as the deployment declares (notifications/native-push-queue.ts).
     */
    NATIVE_PUSH?: Queue<import('../shared/notifications/native-push.js').NativePushJob[]>;
  }
}
