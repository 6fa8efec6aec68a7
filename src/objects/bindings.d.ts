// Bindings only the objects' worker has (wrangler.objects.toml). `npm run types` takes the Env of
// wrangler.toml alone, so they are added here, optional: the edge's Env has none of them.
declare namespace Cloudflare {
  interface Env {
    /** The native push queue the notification objects feed (the edge consumes it). */
    NATIVE_PUSH?: Queue<import('../shared/notifications/native-push.js').NativePushJob[]>;
  }
}
