// The background worker's de-federation: once this backend stops federating with a remote, the
// conversations and connections it shared with it are cleaned up. Users who shared any of them
// hear `federation.delete` twice, before and after (each user once per round).
import type { Config } from '../../shared/config/index.js';
import { forgetConnectionsTo, usersConnectedTo } from '../brig/face.js';
import { database } from '../db/client.js';
import { publish } from '../events/publish.js';
import { forgetConversationsWith, localUsersAlongside } from '../galley/face.js';
import type { Defederation } from './notifications.js';
import { outboxStore } from './outbox-store.js';

export function isDefederation(body: unknown): body is Defederation {
  return typeof body === 'object' && body !== null && typeof (body as Defederation).defederate === 'string';
}

/** Runs the clean-up for a remote this backend no longer federates with (safe to run again). */
export async function defederate(env: Env, config: Config, domain: string): Promise<void> {
  const db = database(env.DB);
  const users = new Set([
    ...(await localUsersAlongside(config, db, [domain])),
    ...(await usersConnectedTo(db, domain)),
  ]);
  const recipients = [...users].map((user) => ({ user }));
  const event = { type: 'federation.delete', domain };
  await publish(env, config, recipients, event);
  await forgetConversationsWith(env, config, db, domain);
  await forgetConnectionsTo(db, domain);
  await outboxStore.dropDomain(db, domain);
  await publish(env, config, recipients, event);
}
