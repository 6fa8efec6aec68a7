/*
 * galley's team queue: a work-around wire-server keeps for teams too large to fan every event
 * out to, holding only `team.member-join`. Kept for gundeck's `notificationTTL`, like the users'
 * streams.
 */

import type { Config } from '../../../shared/config/index.js';
import { timeKey, UuidV1Generator } from '../../../shared/uuid-v1.js';
import type { Db } from '../../db/client.js';
import { teamNotificationStore, type TeamEventPayload } from './team-notification-store.js';

let ids: UuidV1Generator | undefined;
/** A fresh id of the team queue (a v1 UUID). Made on first use: workers may not draw random values (the node id) at global scope. */
export const nextTeamNoticeId = () => (ids ??= new UuidV1Generator()).next();

const cutoffOf = (config: Config, now = Date.now()) => timeKey(now - config.gundeck.settings.notificationTTL * 1000);

/** The statement appending one event to the team's queue under a fresh v1 UUID, for the batch of its change. */
export function pushTeamEvent(db: Db, team: string, event: { type: string }, id = nextTeamNoticeId()) {
  return teamNotificationStore.append(db, team, id, [event as unknown as TeamEventPayload]);
}

/**
 * A page as wire-server reads it: `size` notifications, plus one when `since` is given, since
 * the notification `since` names (when it still exists) comes first and is not counted.
 */
export async function readTeamQueue(db: Db, config: Config, team: string, since: string | undefined, size: number) {
  const limit = since === undefined ? size : size + 1;
  const rows = await teamNotificationStore.page(db, team, { since, cutoff: cutoffOf(config), limit: limit + 1 });
  return {
    notifications: rows.slice(0, limit).map((r) => ({ id: r.id, payload: r.payload })),
    has_more: rows.length > limit,
  };
}

/** Removes what the TTL has expired in every team's queue (reads already skip it). */
export function sweepExpiredTeamNotifications(db: Db, config: Config, now = Date.now()): Promise<number> {
  return teamNotificationStore.removeExpired(db, cutoffOf(config, now));
}
