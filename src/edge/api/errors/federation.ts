import { defineErrors } from './api-error.js';

/** Errors of calls that involve other backends. */
export const federationErrors = defineErrors({
  federationNotEnabled: {
    status: 400,
    label: 'federation-not-enabled',
    message: 'no federator configured',
  },
});
