// gundeck's public face: what other components and the runtime use of native push.
export { enableQueueEffect, forgetAccountEffect, forgetClientsEffect, legacyClientEffect } from './push/addresses.js';
export { runNativePushQueue } from './push/deliver.js';
