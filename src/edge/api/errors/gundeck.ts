import { defineErrors } from './api-error.js';

/** gundeck's error catalogue: the notification stream. */
export const gundeckErrors = defineErrors({
  invalidNotificationId: { status: 400, label: 'bad-request', message: 'Invalid Notification ID' },
  notificationsNotFound: { status: 404, label: 'not-found', message: 'Some notifications not found' },
  notificationNotFound: { status: 404, label: 'not-found', message: 'Notification not found' },
});
