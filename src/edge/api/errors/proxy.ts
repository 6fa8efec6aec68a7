import { defineErrors } from './api-error.js';

/** The proxy's errors: the third party could not be reached, or answered what the proxy cannot pass on. */
export const proxyErrors = defineErrors({
  badGateway: { status: 502, label: 'bad-gateway', message: 'The upstream service could not be reached' },
});
