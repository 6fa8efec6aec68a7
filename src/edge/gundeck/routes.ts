import type { Endpoint } from '../api/endpoint.js';
import { setupConsumableNotifications } from './consumable.js';
import { getNotification, lastNotification, listNotifications, listNotificationsV2 } from './notifications.js';

export const gundeckPublic: Endpoint[] = [listNotifications, listNotificationsV2, lastNotification, getNotification];

export const gundeckInternal: Endpoint[] = [setupConsumableNotifications];
