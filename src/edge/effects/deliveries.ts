import { NotificationShards } from '../../objects/notification-shards.js';
import { type DeliveriesArgs, DELIVERIES_EFFECT } from '../../shared/effects/deliveries-effect.js';
import { defineEffect } from './effect.js';

/** Notifications a Durable Object built and recorded with its writes, stored when the sweep finds them. */
defineEffect(DELIVERIES_EFFECT, ({ env, mark }, a: DeliveriesArgs) =>
  new NotificationShards(env).append(a.deliveries, a.ttlSeconds, mark()),
);
