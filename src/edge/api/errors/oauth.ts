import { defineErrors } from './api-error.js';

/** brig's OAuth errors (labels as wire has them, `invalid_grant` with its underscore). */
export const oauthErrors = defineErrors({
  disabled: { status: 403, label: 'forbidden', message: 'OAuth is disabled' },
  clientNotFound: { status: 404, label: 'not-found', message: 'OAuth client not found' },
  codeNotFound: { status: 404, label: 'not-found', message: 'OAuth authorization code not found' },
  redirectUrlMissMatch: {
    status: 400,
    label: 'redirect-url-miss-match',
    message: 'The redirect URL does not match the one registered with the client',
  },
  invalidGrantType: { status: 403, label: 'forbidden', message: 'Invalid grant type' },
  invalidRefreshToken: { status: 403, label: 'forbidden', message: 'Invalid refresh token' },
  invalidClientCredentials: { status: 403, label: 'forbidden', message: 'Invalid client credentials' },
  invalidGrant: { status: 403, label: 'invalid_grant', message: 'Invalid grant' },
  jwtError: { status: 500, label: 'jwt-error', message: 'Internal error while handling JWT token' },
  accessDenied: { status: 403, label: 'access-denied', message: 'Access denied.' },
  insufficientScope: { status: 403, label: 'forbidden', message: 'The OAuth token lacks the scope this needs' },
});
