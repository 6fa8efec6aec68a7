// gundeck's public face: what other components and the runtime use of native push.
export { forgetAccount, forgetClients } from './push/addresses.js';
export { runNativePushQueue } from './push/deliver.js';
