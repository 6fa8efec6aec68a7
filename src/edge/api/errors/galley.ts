import { defineErrors } from './api-error.js';

/** galley's error catalogue: conversations and messaging. */
export const galleyErrors = defineErrors({
  noConversation: { status: 404, label: 'no-conversation', message: 'Conversation not found' },
  noConversationMember: { status: 404, label: 'no-conversation-member', message: 'Conversation member not found' },
  accessDenied: { status: 403, label: 'access-denied', message: 'Conversation access denied' },
  actionDenied: { status: 403, label: 'action-denied', message: 'Insufficient authorization' },
  operationDenied: { status: 403, label: 'operation-denied', message: 'Insufficient permissions' },
  notConnected: { status: 403, label: 'not-connected', message: 'Users are not connected' },
  noTeamMember: { status: 403, label: 'no-team-member', message: 'Requesting user is not a team member' },
  invalidOp: { status: 403, label: 'invalid-op', message: 'Invalid operation' },
  invalidProtocolTransition: {
    status: 403,
    label: 'invalid-protocol-transition',
    message: 'Protocol transition is invalid',
  },
  tooManyMembers: {
    status: 403,
    label: 'too-many-members',
    message: 'Maximum number of members per conversation reached',
  },
  convSizeOutOfRange: { status: 400, label: 'client-error', message: 'Too many users for one conversation' },
  nonEmptyMemberList: {
    status: 400,
    label: 'non-empty-member-list',
    message: 'Attempting to add group members outside MLS',
  },
  mlsReceiptsNotAllowed: {
    status: 403,
    label: 'mls-receipts-not-allowed',
    message: 'Read receipts on MLS conversations are not allowed',
  },
  unknownClient: { status: 403, label: 'unknown-client', message: 'Unknown Client' },
  one2OneSize: { status: 400, label: 'client-error', message: 'A 1:1 conversation needs exactly one other user' },
  noTeam: { status: 404, label: 'no-team', message: 'Team not found' },
  invalidActions: { status: 400, label: 'invalid-actions', message: 'The specified actions are invalid' },
  bindingTeam: { status: 403, label: 'binding-team', message: 'Cannot add users to binding teams, invite only' },
  invalidTeamNotificationId: {
    status: 400,
    label: 'invalid-notification-id',
    message: 'Could not parse notification id (must be UUIDv1).',
  },
  tooManyUids: { status: 400, label: 'too-many-uids', message: 'Can only process 2000 user ids per request.' },
  noTeamMemberFound: { status: 404, label: 'no-team-member', message: 'Team member not found' },
  noOtherOwner: {
    status: 403,
    label: 'no-other-owner',
    message: 'You are trying to remove or downgrade the last owner. Promote somebody else first.',
  },
  invalidPermissions: { status: 403, label: 'invalid-permissions', message: 'The specified permissions are invalid' },
  legalholdNotEnabled: {
    status: 403,
    label: 'legalhold-not-enabled',
    message: 'Legal hold is not enabled for this wire instance',
  },
  ssoDisableNotImplemented: {
    status: 403,
    label: 'not-implemented',
    message: 'The SSO feature flag is disabled by default. It can only be enabled once for any team, never disabled.',
  },
  inactivityTimeoutTooLow: {
    status: 400,
    label: 'inactivity-timeout-too-low',
    message: 'Applock inactivity timeout must be at least 30 seconds',
  },
  mlsProtocolMismatch: {
    status: 400,
    label: 'mls-protocol-mismatch',
    message: 'The default protocol needs to be part of the supported protocols',
  },
  mlsE2eidMissingCrlProxy: {
    status: 400,
    label: 'mls-e2eid-missing-crl-proxy',
    message: "The field 'crlProxy' is missing in the request payload",
  },
  emptyDownloadLocation: {
    status: 400,
    label: 'empty-download-location',
    message: 'Download location cannot be empty',
  },
  teamSearchVisibilityNotEnabled: {
    status: 403,
    label: 'team-search-visibility-not-enabled',
    message: 'Custom search is not available for this team',
  },
  channelsNotEnabled: {
    status: 403,
    label: 'channels-not-enabled',
    message: 'The channels feature is not enabled for this team',
  },
  notAnMlsConversation: {
    status: 403,
    label: 'not-mls-conversation',
    message: 'This operation requires an MLS conversation',
  },
  resourceAccessDenied: {
    status: 403,
    label: 'access-denied',
    message: 'You do not have permission to access this resource',
  },
  reauthRequired: { status: 403, label: 'access-denied', message: 'This operation requires reauthentication' },
  featureLocked: {
    status: 409,
    label: 'feature-locked',
    message:
      'Feature config cannot be updated (e.g. because it is configured to be locked, or because you need to upgrade your plan)',
  },
  tooManyUsersToBroadcast: {
    status: 400,
    label: 'too-many-users-to-broadcast',
    message: 'Too many users to fan out the broadcast event to',
  },
  guestLinksDisabled: {
    status: 409,
    label: 'guest-links-disabled',
    message: 'The guest link feature is disabled and all guest links have been revoked',
  },
  codeConflict: {
    status: 409,
    label: 'create-conv-code-conflict',
    message: 'Conversation code already exists with a different password setting than the requested one.',
  },
  noConversationCode: { status: 404, label: 'no-conversation-code', message: 'Conversation code not found' },
  invalidConversationPassword: {
    status: 403,
    label: 'invalid-conversation-password',
    message: 'Invalid conversation password',
  },
  invalidTeamStatusUpdate: {
    status: 403,
    label: 'invalid-team-status-update',
    message: 'Cannot use this endpoint to update the team to the given status.',
  },
  invalidPagingState: { status: 400, label: 'bad-request', message: 'Invalid paging state' },
  invalidUuidV4: { status: 400, label: 'client-error', message: 'Invalid UUID v4 format' },
});
