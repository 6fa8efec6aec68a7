import { ApiError, defineErrors, type ErrorBody, type ErrorSpec } from './api-error.js';

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
  federatorTokenRequired: {
    status: 401,
    label: 'unauthorized',
    message: "This host serves the federator's calls only, with its bearer token",
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
  disabledForProtocol: {
    status: 409,
    label: 'federation-disabled-for-protocol',
    message: 'Federation is disabled for the given protocol',
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

/**
 * Errors whose body is a bare list of domains, as wire answers them from v3 on: 533
 * `{"unreachable_backends": [...]}` (some backend of a conversation could not be reached) and 409
 * `{"non_federating_backends": [a, b]}` (two of them do not federate with each other).
 */
export class DomainsError extends ApiError {
  constructor(
    spec: ErrorSpec,
    readonly key: 'unreachable_backends' | 'non_federating_backends',
    readonly domains: readonly string[],
  ) {
    super(spec, `${spec.message}: ${domains.join(', ')}`);
  }

  override body(): ErrorBody & Record<string, unknown> {
    return { [this.key]: [...this.domains] } as unknown as ErrorBody & Record<string, unknown>;
  }
}

export const unreachableBackendsSpec: ErrorSpec = {
  status: 533,
  label: 'unreachable-backends',
  message: 'Some backends of the conversation could not be reached',
};
export const nonFederatingBackendsSpec: ErrorSpec = {
  status: 409,
  label: 'non-federating-backends',
  message: 'Backends of the conversation do not federate with each other',
};

const unreachableDomainsSpec: ErrorSpec = {
  status: 533,
  label: 'federation-unreachable-domains-error',
  message: 'Some domains could not be reached',
};

/**
 * 533 `unreachable_backends` (v3+); before v3 the standard body, label
 * `federation-unreachable-domains-error`, with `data.domains` (and the deprecated `data.domain`: the first).
 */
export function unreachableBackends(domains: readonly string[], apiVersion: number): ApiError {
  if (apiVersion >= 3) return new DomainsError(unreachableBackendsSpec, 'unreachable_backends', domains);
  return new ApiError(
    unreachableDomainsSpec,
    undefined,
    {},
    { data: { type: 'federation', domains, domain: domains[0] } },
  );
}
