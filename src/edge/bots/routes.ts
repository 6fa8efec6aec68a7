import type { Endpoint } from '../api/endpoint.js';
import { providerAccountEndpoints, providerInternalEndpoints } from './providers/account-routes.js';
import { providerResetEndpoints, providerResetInternalEndpoints } from './providers/password-reset-routes.js';
import { serviceDiscoveryEndpoints } from './services/discovery-routes.js';
import { providerServiceEndpoints } from './services/service-routes.js';
import { addBotRoute, addBotV6 } from './conversation-bots/add-bot.js';
import { deleteBotSelf, removeBotRoute, removeBotV6 } from './conversation-bots/remove-bot.js';

export const botsPublic: Endpoint[] = [
  ...providerAccountEndpoints,
  ...providerResetEndpoints,
  ...providerServiceEndpoints,
  ...serviceDiscoveryEndpoints,
  addBotRoute,
  addBotV6,
  removeBotRoute,
  removeBotV6,
  deleteBotSelf,
];

export const botsInternal: Endpoint[] = [...providerInternalEndpoints, ...providerResetInternalEndpoints];
