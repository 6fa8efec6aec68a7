import { defineErrors } from './api-error.js';

/** brig's domain registration (enterprise login) errors, labels as wire has them. */
export const domainErrors = defineErrors({
  notFound: { status: 404, label: 'not-found', message: 'Not Found' },
  invalidDomain: { status: 400, label: 'invalid-domain', message: 'Invalid domain' },
  verificationFailed: { status: 403, label: 'domain-verification-failed', message: 'Domain verification failed' },
  operationForbidden: {
    status: 403,
    label: 'operation-forbidden-for-domain-registration-state',
    message: 'Invalid domain registration state update',
  },
  authFailure: {
    status: 401,
    label: 'domain-registration-update-auth-failure',
    message: 'Domain registration updated auth failure',
  },
  paymentRequired: {
    status: 402,
    label: 'domain-registration-update-payment-required',
    message: 'Domain registration updated payment required',
  },
  challengeNotFound: { status: 404, label: 'challenge-not-found', message: 'Challenge not found' },
  /** An email's domain registration keeps it from this flow (the message says which rule). */
  emailDomainGuard: { status: 403, label: 'condition-failed', message: 'The email domain does not allow this' },
  inviteNotAllowed: {
    status: 403,
    label: 'condition-failed',
    message: 'Emails from this domain are not allowed to be invited to this team',
  },
});
