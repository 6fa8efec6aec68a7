import type { Endpoint } from '../api/endpoint.js';
import { awaitNotifications } from './await.js';
import { consumeEvents } from './events.js';

export const cannonPublic: Endpoint[] = [awaitNotifications, consumeEvents];
