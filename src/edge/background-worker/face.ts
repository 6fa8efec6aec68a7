// background-worker's public face: queueing notifications for other backends, and the jobs that deliver them.
export { forEveryVersion, queueForRemotes } from './notifications.js';
export type { RemoteNotification } from './notifications.js';
export { pushAllWaiting, pushQueued } from './pusher.js';
