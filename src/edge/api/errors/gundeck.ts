import { defineErrors } from './api-error.js';

/** gundeck's error catalogue: the notification stream and native push tokens. */
export const gundeckErrors = defineErrors({
  invalidNotificationId: { status: 400, label: 'bad-request', message: 'Invalid Notification ID' },
  notificationsNotFound: { status: 404, label: 'not-found', message: 'Some notifications not found' },
  notificationNotFound: { status: 404, label: 'not-found', message: 'Notification not found' },
  pushTokenNotFound: { status: 404, label: 'not-found', message: 'Push token not found' },
  appNotFound: { status: 404, label: 'app-not-found', message: 'App does not exist' },
  invalidPushToken: { status: 404, label: 'invalid-token', message: 'Invalid push token' },
  tokenTooLong: {
    status: 413,
    label: 'token-too-long',
    message: 'Push token length must be < 8192 for GCM or 400 for APNS',
  },
  metadataTooLong: {
    status: 413,
    label: 'metadata-too-long',
    message: 'Tried to add token to endpoint resulting in metadata length > 2048',
  },
  apnsVoipNotSupported: {
    status: 400,
    label: 'apns-voip-not-supported',
    message: 'Adding APNS_VOIP tokens is not supported',
  },
  pushGatewayInconsistent: { status: 500, label: 'server-error', message: 'Server Error' },
});
