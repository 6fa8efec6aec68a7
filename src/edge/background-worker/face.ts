// background-worker's public face: queueing notifications for other backends and de-federation
// (the jobs that run them are in jobs.ts, for the runtime's triggers).
export {
  forEveryVersion,
  queueDefederation,
  queuedForRemotes,
  queueForRemotes,
  unreachableAmong,
} from './notifications.js';
export type { RemoteNotification } from './notifications.js';
