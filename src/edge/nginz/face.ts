/** nginz's face: the gateway the worker's entry points (index.ts, runtime.ts) hand requests to. */

/** The public ingress: CORS, Z-Host, payload and rate limits, then the version's app. */
export { servePublic } from './gateway.js';
/** The internal ingress: unversioned `/i/...` routes only. */
export { serveInternal } from './gateway.js';
/** A fresh request id (also for queued and scheduled work, whose log lines it ties together). */
export { newRequestId } from './gateway.js';
/** A request whose unread body the edge can read and discard after the route is done. */
export { drainable } from './body-drain.js';
/** The most the edge reads and discards after an early answer: the largest body any route accepts. */
export { drainLimit } from './body-drain.js';
