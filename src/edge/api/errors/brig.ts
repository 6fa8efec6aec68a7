import { defineErrors } from './api-error.js';

/** brig's error catalogue: accounts, authentication, users, clients, connections, properties. */
export const brigErrors = defineErrors({
  rateLimitExceeded: { status: 429, label: 'too-many-requests', message: 'Please try again later.' },
  federationRemoteDivergingConfig: {
    status: 409,
    label: 'federation-remote-diverging-config',
    message: 'The remote is listed in the brig configuration with other settings; change the configuration instead',
  },
  federationDomainMismatch: {
    status: 400,
    label: 'federation-domain-mismatch',
    message: 'The domain of a remote backend cannot be changed',
  },
  federationRemoteInConfig: {
    status: 533,
    label: 'federation-unexpected-wai-error',
    message: 'The remote is listed in the brig configuration, which still allows it; remove it there too',
  },
  federationRemoteNotRestricted: {
    status: 533,
    label: 'federation-unexpected-wai-error',
    message: 'The remote is unknown, or not restricted by team: teams can be added only to a remote restricted by team',
  },
  federationRemoteNotFound: {
    status: 404,
    label: 'federation-remote-not-found',
    message: 'The remote backend is not in the list and cannot be updated',
  },
  // registration and activation
  insufficientPermissions: { status: 403, label: 'insufficient-permissions', message: 'Insufficient team permissions' },
  tooManyTeamInvitations: {
    status: 403,
    label: 'too-many-team-invitations',
    message: 'Too many team invitations for this team',
  },
  tooManyTeamMembers: { status: 403, label: 'too-many-team-members', message: 'Too many members in this team.' },
  noEmail: {
    status: 403,
    label: 'no-email',
    message: 'This operation requires the user to have a verified email address.',
  },
  invitationNotFound: { status: 404, label: 'not-found', message: 'No pending invitations exists.' },
  conflictingInvitations: {
    status: 409,
    label: 'conflicting-invitations',
    message: 'Multiple conflicting invitations to different teams exists.',
  },
  cannotJoinMultipleTeams: {
    status: 403,
    label: 'cannot-join-multiple-teams',
    message: 'Cannot accept invitations from multiple teams.',
  },
  userAlreadyInATeam: { status: 403, label: 'user-already-in-a-team', message: 'Switching teams is not allowed' },
  keyExists: { status: 409, label: 'key-exists', message: 'The given e-mail address is in use.' },
  /** What an invitation of an address in use answers (wire's TeamInvitationEmailTaken). */
  emailExists: { status: 409, label: 'email-exists', message: 'The given e-mail address is in use.' },
  invalidEmail: { status: 400, label: 'invalid-email', message: 'Invalid e-mail address.' },
  invalidPhone: { status: 400, label: 'invalid-phone', message: 'Phone numbers are not supported' },
  invalidActivationCode: { status: 404, label: 'invalid-code', message: 'Invalid activation code' },
  activationKeyNotFound: { status: 404, label: 'not-found', message: 'Activation key not found.' },
  activationUserMissing: { status: 404, label: 'invalid-code', message: 'User does not exist' },
  userCreationRestricted: {
    status: 403,
    label: 'user-creation-restricted',
    message: 'This instance does not allow creation of personal users or teams.',
  },
  ephemeralUserCreationDisabled: {
    status: 403,
    label: 'ephemeral-user-creation-disabled',
    message: 'Ephemeral user creation is disabled on this instance',
  },
  invalidInvitationCode: { status: 400, label: 'invalid-invitation-code', message: 'Invalid invitation code.' },
  missingIdentity: {
    status: 403,
    label: 'missing-identity',
    message: 'Using an invitation code requires registering the given email.',
  },
  // authentication
  // The official clients tell a wrong password ("Authentication failed.") from a dead session by this text.
  invalidCredentials: { status: 403, label: 'invalid-credentials', message: 'Authentication failed.' },
  /** A cookie or token that does not even read as one (wire's parse failure, before any check). */
  unreadableToken: { status: 403, label: 'client-error', message: 'Failed reading: Invalid zauth token' },
  pendingActivation: { status: 403, label: 'pending-activation', message: 'Account pending activation' },
  suspended: { status: 403, label: 'suspended', message: 'Account suspended' },
  ephemeral: { status: 403, label: 'ephemeral', message: 'Account is ephemeral' },
  tooManyFailedLogins: { status: 403, label: 'client-error', message: 'Too many failed logins' },
  loginThrottled: { status: 429, label: 'client-error', message: 'Logins too frequent' },
  codeAuthenticationRequired: {
    status: 403,
    label: 'code-authentication-required',
    message: 'Code authentication is required',
  },
  codeAuthenticationFailed: { status: 403, label: 'code-authentication-failed', message: 'Code authentication failed' },
  verificationCodeThrottled: {
    status: 429,
    label: 'too-many-requests',
    message: 'Too many request to generate a verification code.',
  },
  missingAuth: { status: 403, label: 'missing-auth', message: 'Re-authentication via password required' },
  // passwords and account lifecycle
  noIdentity: { status: 403, label: 'no-identity', message: 'The user has no verified email' },
  lastIdentity: { status: 403, label: 'last-identity', message: 'The last user identity cannot be removed.' },
  passwordMustDiffer: {
    status: 409,
    label: 'password-must-differ',
    message: 'For password change, new and old password must be different.',
  },
  invalidPasswordResetCode: { status: 400, label: 'invalid-code', message: 'Invalid password reset code.' },
  invalidPasswordResetKey: {
    status: 400,
    label: 'invalid-key',
    message: 'Invalid email or mobile number for password reset.',
  },
  invalidDeletionCode: { status: 403, label: 'invalid-code', message: 'Invalid verification code' },
  pendingDelete: {
    status: 403,
    label: 'pending-delete',
    message: 'A verification code for account deletion is still pending.',
  },
  noSelfDeleteForTeamOwner: {
    status: 403,
    label: 'no-self-delete-for-team-owner',
    message: 'Team owners are not allowed to delete themselves; ask a fellow owner',
  },
  // users, handles
  userNotFound: { status: 404, label: 'not-found', message: 'User not found' },
  handleNotFound: { status: 404, label: 'not-found', message: 'Handle not found' },
  invalidHandle: {
    status: 400,
    label: 'invalid-handle',
    message: 'The given handle is invalid (2-256 characters of a-z0-9_.-)',
  },
  handleExists: { status: 409, label: 'handle-exists', message: 'The given handle is already taken' },
  managedByScim: {
    status: 403,
    label: 'managed-by-scim',
    message: 'Updating name/handle is disabled for SCIM-managed users',
  },
  emailManagedByScim: {
    status: 403,
    label: 'managed-by-scim',
    message: 'Updating "email" is not allowed, because it is managed by SCIM',
  },
  tooLargeRichInfo: { status: 413, label: 'too-large-rich-info', message: 'Rich info has exceeded the limit' },
  mlsCannotBeRemoved: { status: 409, label: 'mls-protocol-error', message: 'MLS protocol cannot be removed' },
  invalidUser: { status: 400, label: 'invalid-user', message: 'Invalid user' },
  teamsNotFederating: {
    status: 403,
    label: 'team-not-federating',
    message: "The target user's backend does not federate with the caller's team",
  },
  // clients and prekeys
  malformedPrekeys: { status: 400, label: 'bad-request', message: 'Malformed prekeys uploaded' },
  malformedCapabilities: {
    status: 400,
    label: 'bad-request',
    message: 'The capability consumable-notifications exists from API version 8 on',
  },
  legalholdClientManually: {
    status: 400,
    label: 'client-error',
    message: 'LegalHold clients cannot be added manually. LegalHold must be enabled on this user by an admin',
  },
  legalholdClientDeleted: {
    status: 400,
    label: 'client-error',
    message: 'LegalHold clients cannot be deleted. LegalHold must be disabled on this user by an admin',
  },
  tooManyClients: {
    status: 403,
    label: 'too-many-clients',
    message: 'Too many clients',
  },
  clientNotFound: { status: 404, label: 'client-not-found', message: 'Client not found' },
  capabilitiesCannotBeRemoved: {
    status: 409,
    label: 'client-capabilities-cannot-be-removed',
    message: 'You can only add capabilities to a client, not remove them.',
  },
  mlsDuplicatePublicKey: {
    status: 400,
    label: 'mls-duplicate-public-key',
    message: 'MLS public key for the given signature scheme already exists',
  },
  prekeyNotFound: { status: 404, label: 'not-found', message: 'prekey not found' },
  userClientNotFound: { status: 404, label: 'not-found', message: 'client not found' },
  tooManyClientsRequested: { status: 403, label: 'too-many-clients', message: 'Too many clients requested' },
  // connections
  connectionLimit: { status: 403, label: 'connection-limit', message: 'Too many sent/accepted connections' },
  badConnUpdate: { status: 403, label: 'bad-conn-update', message: 'Invalid status transition' },
  notConnected: { status: 403, label: 'not-connected', message: 'Users are not connected' },
  sameBindingTeamUsers: {
    status: 403,
    label: 'same-binding-team-users',
    message: 'Operation not allowed to binding team users.',
  },
  invalidPagingState: { status: 400, label: 'bad-request', message: 'Invalid paging state' },
  // properties
  propertyKeyTooLarge: { status: 403, label: 'property-key-too-large', message: 'The property key is too large.' },
  propertyValueTooLarge: { status: 403, label: 'property-value-too-large', message: 'The property value is too large' },
  tooManyProperties: { status: 403, label: 'too-many-properties', message: 'Too many properties' },
  invalidPropertyKey: { status: 400, label: 'bad-request', message: 'Property keys must be printable ASCII' },
  propertyNotFound: { status: 404, label: 'not-found', message: 'Property not found' },
});
