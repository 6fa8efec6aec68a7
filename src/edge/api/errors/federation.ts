import { defineErrors } from './api-error.js';

/**
 * Errors of calls that involve other backends. The federator's own refusals (its discovery, its
 * TLS, a remote's refusal) reach the caller as the federator gave them; these are the ones the
 * worker itself raises, and the federator's ones routes document.
 */
export const federationErrors = defineErrors({
  federationNotEnabled: {
    status: 400,
    label: 'federation-not-enabled',
    message: 'no federator configured',
  },
  federationNotAvailable: {
    status: 500,
    label: 'federation-not-available',
    message: 'Local federator not available',
  },
  federationDenied: {
    status: 400,
    label: 'federation-denied',
    message: 'This backend does not federate with the requested one',
  },
  invalidDomain: { status: 422, label: 'invalid-domain', message: 'The remote backend could not be found' },
  connectionRefused: {
    status: 521,
    label: 'federation-connection-refused',
    message: 'The remote federator could not be reached',
  },
  tlsError: { status: 525, label: 'federation-tls-error', message: 'TLS handshake with the remote failed' },
  remoteError: {
    status: 533,
    label: 'federation-remote-error',
    message: 'A remote federator failed',
  },
  versionError: {
    status: 533,
    label: 'federation-version-error',
    message: 'Version negotiation with the remote backend failed',
  },
  invalidBody: {
    status: 533,
    label: 'federation-invalid-body',
    message: 'Could not parse remote federator response',
  },
});

/** What any call to another backend may end in: listed by routes that make one. */
export const FEDERATED_CALL_ERRORS = [
  federationErrors.federationNotEnabled,
  federationErrors.federationNotAvailable,
  federationErrors.federationDenied,
  federationErrors.invalidDomain,
  federationErrors.connectionRefused,
  federationErrors.tlsError,
  federationErrors.remoteError,
  federationErrors.versionError,
  federationErrors.invalidBody,
] as const;
