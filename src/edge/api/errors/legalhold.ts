import { defineErrors } from './api-error.js';

/** galley's legal hold errors, with wire's labels and messages. */
export const legalholdErrors = defineErrors({
  notEnabledForTeam: {
    status: 403,
    label: 'legalhold-not-enabled',
    message: 'legal hold is not enabled for this team',
  },
  notRegistered: {
    status: 400,
    label: 'legalhold-not-registered',
    message: 'legal hold service has not been registered for this team',
  },
  statusBad: { status: 400, label: 'legalhold-status-bad', message: 'legal hold service: invalid response' },
  invalidKey: { status: 400, label: 'legalhold-invalid-key', message: 'legal hold service pubkey is invalid' },
  /** The message names what went wrong, as wire shows the underlying error. */
  unavailable: { status: 412, label: 'legalhold-unavailable', message: 'legal hold service unavailable' },
  noCommonVersion: {
    status: 500,
    label: 'server-error',
    message: 'legal hold service: no API version in common with this backend',
  },
  tooLargeTeam: {
    status: 403,
    label: 'too-large-team-for-legalhold',
    message:
      'Cannot enable legalhold on large teams (reason: for removing LH from team, we need to iterate over all members, which is only supported for teams with less than 2k members)',
  },
  missingConsent: {
    status: 403,
    label: 'missing-legalhold-consent',
    message:
      'Failed to connect to a user or to invite a user to a group because somebody is under legalhold and somebody else has not granted consent',
  },
  alreadyEnabled: {
    status: 409,
    label: 'legalhold-already-enabled',
    message: 'legal hold is already enabled for this user',
  },
  noConsent: { status: 409, label: 'legalhold-no-consent', message: 'user has not given consent to using legal hold' },
  mlsNotAllowed: {
    status: 409,
    label: 'mls-legal-hold-not-allowed',
    message: 'A user who is under legal-hold may not participate in MLS conversations',
  },
  notPending: {
    status: 412,
    label: 'legalhold-not-pending',
    message: 'legal hold cannot be approved without being in a pending state',
  },
  noDevice: {
    status: 404,
    label: 'legalhold-no-device-allocated',
    message: 'no legal hold device is registered for this user. POST /teams/:tid/legalhold/:uid/ to start the flow.',
  },
});
