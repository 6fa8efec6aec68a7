import { defineErrors } from './api-error.js';

/** brig's error catalogue. */
export const brigErrors = defineErrors({
  rateLimitExceeded: { status: 429, label: 'too-many-requests', message: 'Please try again later.' },
  federationRemoteDivergingConfig: {
    status: 409,
    label: 'federation-remote-diverging-config',
    message: 'The remote is listed in the brig configuration with other settings; change the configuration instead',
  },
  federationDomainMismatch: {
    status: 400,
    label: 'federation-domain-mismatch',
    message: 'The domain of a remote backend cannot be changed',
  },
  federationRemoteNotFound: {
    status: 404,
    label: 'federation-remote-not-found',
    message: 'The remote backend is not in the list and cannot be updated',
  },
});
