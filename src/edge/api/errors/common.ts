import { defineErrors } from './api-error.js';

/** Errors any endpoint can produce, raised by the edge layer itself. */
export const commonErrors = defineErrors({
  noEndpoint: { status: 404, label: 'no-endpoint', message: 'The requested endpoint does not exist' },
  methodNotAllowed: {
    status: 405,
    label: 'method-not-allowed',
    message: 'The method is not allowed for this endpoint',
  },
  basicAuthRequired: { status: 401, label: 'unauthorized', message: 'Basic authentication required' },
  unauthorized: { status: 401, label: 'client-error', message: 'Missing, invalid or expired access token' },
  tokenScope: {
    status: 403,
    label: 'access-denied',
    message: 'This kind of token does not reach this endpoint (legal hold devices, providers and bots reach their own)',
  },
  websocketRequired: { status: 400, label: 'bad-request', message: 'This endpoint expects a websocket upgrade' },
  badRequest: { status: 400, label: 'bad-request', message: 'Malformed request' },
  unsupportedVersion: { status: 404, label: 'unsupported-version', message: 'Version is not supported' },
  payloadTooLarge: { status: 413, label: 'client-error', message: 'Request body too large' },
  tooManyRequests: { status: 429, label: 'too-many-requests', message: 'Rate limit exceeded' },
  internalServerError: { status: 500, label: 'internal-server-error', message: 'Internal server error' },
  invalidConfiguration: {
    status: 500,
    label: 'invalid-configuration',
    message: 'The server refuses to serve: its configuration is invalid',
  },
});
