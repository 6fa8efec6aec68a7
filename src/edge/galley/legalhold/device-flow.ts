import { ApiError } from '../../api/errors/api-error.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import type { AccessClaims } from '../../auth/tokens.js';
import type { Db } from '../../db/client.js';
import { commitChange, joinChanges } from '../../effects/commit-change.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { legalholdStore } from './legalhold-store.js';
import { resolvingGroupConflicts } from './policy-conflicts.js';
import { confirm, initiate } from './service-client.js';
import type { Deps } from '../../api/deps.js';

const LAST_PREKEY_ID = 65535;

async function serviceOf(db: Db, team: string) {
  const service = await legalholdStore.service(db, team);
  if (service === undefined) throw new ApiError(legalholdErrors.notRegistered);
  return service;
}

/** Asks the team's service for a device for the member; the member becomes `pending`. */
export async function requestDevice(d: Deps, o: { team: string; user: string }): Promise<void> {
  const { env, config, db } = d;
  const who = { id: o.user, domain: d.domain };
  // Legal hold records Proteus traffic only: a member of MLS conversations cannot be put under it.
  if (await conversationBook.inMlsConversation(d.env, who)) throw new ApiError(legalholdErrors.mlsNotAllowed);
  const service = await serviceOf(db, o.team);
  const device = await initiate(config, service, who, o.team);
  const pending = {
    statements: [
      ...legalholdStore.setPendingPrekeys(db, o.user, [...device.prekeys, device.lastPrekey]),
      legalholdStore.setStatus(db, o.team, o.user, 'pending'),
    ],
    effects: [],
  };
  const announced = await d.users.legalholdRequestAnnounced({ ...o, lastPrekey: device.lastPrekey });
  await commitChange(env, config, joinChanges(pending, announced));
}

/**
 * Makes the requested device a client of the member, logs its service in and tells it; when the
 * service cannot be told, the device goes again and the member stays `pending`.
 */
export async function approveDevice(d: Deps, o: { team: string; user: string; origin: AccessClaims }): Promise<void> {
  const { env, config, db } = d;
  const keys = await legalholdStore.pendingPrekeys(db, o.user);
  const lastPrekey = keys.find((k) => k.id === LAST_PREKEY_ID);
  if (lastPrekey === undefined) throw new ApiError(legalholdErrors.noDevice);
  const service = await serviceOf(db, o.team);
  const prekeys = keys.filter((k) => k.id !== LAST_PREKEY_ID);
  const client = await d.users.addLegalholdDevice({ ...o, prekeys, lastPrekey });
  try {
    const refreshToken = await d.users.legalholdCookie(o.user);
    const user = { id: o.user, domain: d.domain };
    await confirm(config, service, { user, team: o.team, client, refreshToken });
  } catch (err) {
    await commitChange(env, config, await d.users.removingLegalholdDevices({ user: o.user, team: o.team }));
    throw err;
  }
  // Nobody without consent stays beside the device: connections are blocked, conversations
  // resolved, with the member's status, as one change.
  const enabled = { statements: [legalholdStore.setStatus(db, o.team, o.user, 'enabled')], effects: [] };
  await commitChange(
    env,
    config,
    joinChanges(
      await d.users.blockingNonConsenting(o.user),
      await resolvingGroupConflicts(env, config, o.user),
      enabled,
    ),
  );
}
