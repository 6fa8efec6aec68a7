import type { Endpoint } from '../api/endpoint.js';
import { setupConsumableNotifications } from './consumable.js';
import { getNotification, lastNotification, listNotifications, listNotificationsV2 } from './notifications.js';
import { getServerTime } from './server-time.js';
import { deletePushToken, getPushTokens, getUserPushTokens, registerPushToken } from './push/token-routes.js';

export const gundeckPublic: Endpoint[] = [
  listNotifications,
  listNotificationsV2,
  lastNotification,
  getNotification,
  getServerTime,
  registerPushToken,
  getPushTokens,
  deletePushToken,
];

export const gundeckInternal: Endpoint[] = [setupConsumableNotifications, getUserPushTokens];
