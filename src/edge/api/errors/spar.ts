import { defineErrors } from './api-error.js';

/** spar's error catalogue: identity providers, SAML sign-in and SCIM tokens (labels as wire's spar has them). */
export const sparErrors = defineErrors({
  insufficientPermissions: {
    status: 403,
    label: 'insufficient-permissions',
    message: 'You need permission CreateUpdateDeleteIdp.',
  },
  noTeamMember: { status: 403, label: 'no-team-member', message: 'Requesting user is not a team member' },
  ssoDisabled: {
    status: 403,
    label: 'sso-disabled',
    message: 'Please ask customer support to enable this feature for your team.',
  },
  idpNotFound: { status: 404, label: 'not-found', message: 'Could not find IdP.' },
  spNotFound: { status: 404, label: 'not-found', message: 'Could not find SP.' },
  invalidMetadata: { status: 400, label: 'invalid-metadata', message: 'Invalid IdP metadata' },
  idpAlreadyInUse: {
    status: 400,
    label: 'idp-already-in-use',
    message: 'an idp issuer can only be used within one team',
  },
  idpIssuerInUse: {
    status: 400,
    label: 'idp-issuer-in-use',
    message: 'The issuer of the new metadata is already in use',
  },
  idpMustBeHttps: { status: 400, label: 'idp-must-be-https', message: 'an idp request uri must be https' },
  idpHasBoundUsers: { status: 412, label: 'idp-has-bound-users', message: 'an idp can only be deleted if it is empty' },
  cannotDeleteOwnIdp: {
    status: 409,
    label: 'cannot-delete-own-idp',
    message: 'You cannot delete the IdP used to login with your own account.',
  },
  // wire's spelling, which clients match on.
  cannotMixApiVersions: {
    status: 409,
    label: 'cannot-mix-idp-api-verions',
    message: 'The same issuer cannot be registered with both IdP API versions.',
  },
  idpNonUnique: { status: 409, label: 'idp-non-unique', message: 'The issuer is registered in more than one team' },
  tokenLimitReached: {
    status: 403,
    label: 'token-limit-reached',
    message: 'The limit of provisioning tokens per team has been reached',
  },
  reauthRequired: { status: 403, label: 'access-denied', message: 'This operation requires reauthentication.' },
});
