import type { Effect } from '../../effects/effect.js';
import { forgetClientsEffect } from '../../gundeck/face.js';
import { forgetMaterialEffect } from './account-object.js';

/** What deleting some of a user's clients causes beyond D1: their queues and their keys go. */
export const clientsGoneEffects = (user: string, clients: readonly string[]): Effect[] =>
  clients.length === 0 ? [] : [forgetClientsEffect({ user, clients }), forgetMaterialEffect({ user, clients })];
