import type { Endpoint } from '../api/endpoint.js';
import { awaitNotifications } from './await.js';

export const cannonPublic: Endpoint[] = [awaitNotifications];
