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
  conversationNotFound: { status: 404, label: 'not-found', message: 'Conversation not found' },
  accessDenied: { status: 403, label: 'access-denied', message: 'Access denied.' },
  invalidConversation: {
    status: 403,
    label: 'invalid-conversation',
    message: 'The operation is not allowed in this conversation.',
  },
  tooManyMembers: {
    status: 403,
    label: 'too-many-members',
    message: 'Maximum number of members per conversation reached.',
  },
  serviceDisabled: { status: 403, label: 'service-disabled', message: 'The desired service is currently disabled.' },
  serviceNotWhitelisted: {
    status: 403,
    label: 'service-not-whitelisted',
    message: 'The desired service is not on the whitelist of allowed services for this team.',
  },
  tooManyBots: { status: 409, label: 'too-many-bots', message: 'Maximum number of bots for the service reached.' },
  badGateway: { status: 502, label: 'bad-gateway', message: 'The upstream service returned an invalid response' },
  invalidBot: { status: 403, label: 'invalid-bot', message: 'The targeted user is not a bot.' },
  tooManyClients: { status: 403, label: 'too-many-clients', message: 'Too many clients' },
  codeExists: { status: 409, label: 'code-exists', message: 'A password reset is already in progress.' },
  resetCodeUnknown: { status: 400, label: 'invalid-code', message: 'Invalid password reset code.' },
});
