// The background worker's de-federation: once this backend stops federating with a remote, the
// conversations and connections it shared with it are cleaned up. Users who shared any of them
// hear `federation.delete` twice, before and after (each user once per round).
import type { Deps } from '../api/deps.js';
import { publish } from '../events/publish.js';
import { forgetConversationsWith, localUsersAlongside } from '../galley/face.js';
import type { Defederation } from '../federation/outbox.js';
import { outboxStore } from '../federation/outbox-store.js';

export function isDefederation(body: unknown): body is Defederation {
  return typeof body === 'object' && body !== null && typeof (body as Defederation).defederate === 'string';
}

/** Runs the clean-up for a remote this backend no longer federates with (safe to run again). */
export async function defederate(d: Deps, domain: string): Promise<void> {
  const { env, config, db } = d;
  const users = new Set([
    ...(await localUsersAlongside(env, config, [domain])),
    ...(await d.users.usersConnectedTo(domain)),
  ]);
  const recipients = [...users].map((user) => ({ user }));
  const event = { type: 'federation.delete', domain };
  await publish(env, config, recipients, event);
  await forgetConversationsWith(env, config, domain);
  await d.users.forgetConnectionsTo(domain);
  await outboxStore.dropDomain(db, domain);
  await publish(env, config, recipients, event);
}
