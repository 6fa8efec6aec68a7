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
  // initiate-login's redirect URLs: wire gives the label as the message too.
  needBothRedirectUrls: { status: 400, label: 'need-both-redirect-urls', message: 'need-both-redirect-urls' },
  invalidSchema: { status: 400, label: 'invalid-schema', message: 'invalid-schema' },
  urlTooLong: { status: 400, label: 'url-too-long', message: 'url-too-long' },
  badResponseEncoding: { status: 400, label: 'bad-response-encoding', message: 'Bad response: base64 error' },
  badResponseXml: { status: 400, label: 'bad-response-xml', message: 'Bad response: XML parse error' },
  badResponseSaml: { status: 400, label: 'bad-response-saml', message: 'Bad response: not a usable SAML response' },
  issuerMismatch: {
    status: 403,
    label: 'bad-response-saml',
    message: 'Bad response: IdP Issuer in AuthnResponse does not match AuthnRequest',
  },
  badResponseSignature: { status: 400, label: 'bad-response-signature', message: 'Bad response: invalid signature' },
  badTeam: { status: 403, label: 'bad-team', message: 'Forbidden: multiple teams or no team for same UserRef' },
  badUsername: { status: 400, label: 'bad-username', message: 'Bad UserName in SAML response, except len [1, 128]' },
  provisionOnReplacedIdp: {
    status: 400,
    label: 'cannont-provision-on-replaced-idp',
    message: 'This IdP has been replaced, users can only be auto-provisioned on the replacing IdP.',
  },
  noAutoProvisioning: {
    status: 404,
    label: 'not-found',
    message: 'Could not find SAML credentials, and auto-provisioning is disabled.',
  },
  reauthRequired: { status: 403, label: 'access-denied', message: 'This operation requires reauthentication.' },
  // Until v8 a token was tied to the team's only IdP, so a second one could not be told apart.
  moreThanOneIdp: {
    status: 400,
    label: 'more-than-one-idp',
    message: 'The team has more than one IdP; use API version 8 or later to choose one',
  },
});
