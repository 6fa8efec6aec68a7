import { defineErrors } from './api-error.js';

/** brig's errors for service providers, their services and bots (wire's labels and messages). */
export const providerErrors = defineErrors({
  providerNotFound: { status: 404, label: 'not-found', message: 'Provider not found.' },
  serviceNotFound: { status: 404, label: 'not-found', message: 'Service not found.' },
  invalidServiceKey: { status: 400, label: 'invalid-service-key', message: 'Invalid service key.' },
  emailExists: { status: 409, label: 'email-exists', message: 'The given e-mail address is in use.' },
  invalidCode: { status: 403, label: 'invalid-code', message: 'Invalid verification code' },
  invalidCredentials: { status: 403, label: 'invalid-credentials', message: 'Authentication failed' },
  passwordMustDiffer: {
    status: 409,
    label: 'password-must-differ',
    message: 'For password change or reset, new and old password must be different.',
  },
  insufficientPermissions: { status: 403, label: 'insufficient-permissions', message: 'Insufficient team permissions' },
  mlsServicesNotAllowed: { status: 409, label: 'mls-services-not-allowed', message: 'Services not allowed in MLS' },
  tagsOrStart: { status: 400, label: 'bad-request', message: 'At least `tags` or `start` must be provided.' },
});
