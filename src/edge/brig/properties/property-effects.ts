import { defineEffect } from '../../effects/effect.js';
import { accountObject } from '../clients/account-object.js';

/**
 * Writes of the user's properties, in their Account object: effects of the change that announces
 * them (`user.properties-set`, …), written before the event. Each carries its time, so that one
 * carried out late never undoes a newer write.
 */
export const putPropertyEffect = defineEffect(
  'put-property',
  async ({ env }, o: { user: string; key: string; value: string | null; at: number }) =>
    accountObject(env, o.user).putProperty(o.user, o.key, o.value, o.at),
);

export const clearPropertiesEffect = defineEffect(
  'clear-properties',
  async ({ env }, o: { user: string; at: number }) => accountObject(env, o.user).clearProperties(o.user, o.at),
);
