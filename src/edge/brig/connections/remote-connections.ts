import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import type { AccessClaims } from '../../auth/tokens.js';
import { database, type Db } from '../../db/client.js';
import type { Config } from '../../../shared/config/index.js';
import { federationWith } from '../federation/federating.js';
import { remoteProfiles } from '../users/remote-users.js';
import type { Relation } from '../../../shared/db/schema.js';
import { publishEffect } from '../../events/publish.js';
import { commitChange, joinChanges } from '../../effects/commit-change.js';
import { FederatorClient } from '../../federation/client.js';
import { upsertRemoteOne2One } from '../../galley/face.js';
import type { UserRow } from '../users/user-json.js';
import { connectionEvent } from './connection-events.js';
import { connectionBook, type ConnectionRow, putSidesEffect } from './connection-book.js';
import { remoteConnectionStore } from './remote-connection-store.js';
import { remoteActionOf, transition, type LocalAction, type RemoteAction } from './remote-rules.js';
import { deps } from '../../api/deps.js';
import { sendConnectionActionRpc } from '../federation-api/contract.js';

/** Whether the user whose side changed (`actor`) wants to be in the 1:1 in this state (wire's desiredMembership). */
function wantsOne2One(actor: 'local' | 'remote', status: Relation): boolean {
  if (status === 'accepted') return true;
  if (status === 'sent') return actor === 'local';
  return (status === 'pending' || status === 'ignored') && actor === 'remote';
}

/**
 * Stores the local side's new status and tells its user (`user.connection`), in one change with
 * their 1:1's. `origin` is the local user's request when they acted; without it, the remote user did.
 */
export async function writeLocalSide(
  c: Context<AppEnv>,
  user: string,
  other: QualifiedId,
  status: Relation,
  origin?: AccessClaims,
): Promise<ConnectionRow> {
  const db = database(c.env.DB);
  const config = c.get('config');
  const actor = origin === undefined ? 'remote' : 'local';
  const local = { id: user, domain: deps(c).domain };
  const one2one = await upsertRemoteOne2One(c.env, local, other, { actor, included: wantsOne2One(actor, status) });
  const existing = await connectionBook.get(c.env, user, other.domain, other.id);
  const row: ConnectionRow = {
    fromUser: user,
    toDomain: other.domain,
    toUser: other.id,
    status,
    convDomain: one2one.id.domain,
    convId: one2one.id.id,
    lastUpdate: Date.now(),
    statusBeforeLegalhold: null,
  };
  // What the upsert leaves: an existing row keeps its conversation.
  const stored =
    existing === undefined ? row : { ...existing, status, lastUpdate: row.lastUpdate, statusBeforeLegalhold: null };
  // The record of who has remote connections is in the user's partition, the 1:1's indexes in
  // partition 0: it goes first (a record with no connection behind it is passed over when
  // federation with the domain ends).
  await remoteConnectionStore.add(db, other.domain, user);
  const written = {
    statements: [],
    effects: [putSidesEffect([row]), publishEffect([{ user }], connectionEvent(stored), { origin })],
  };
  await commitChange(c.env, config, joinChanges(one2one.change, written));
  return stored;
}

/**
 * A local user's action on their connection with a remote user. The remote is told first (a
 * remote that cannot be reached leaves nothing changed here); its answer may take the local side
 * further (a request the remote user had made becomes accepted).
 */
export async function actOnRemote(
  c: Context<AppEnv>,
  me: UserRow,
  other: QualifiedId,
  action: LocalAction,
): Promise<{ row: ConnectionRow | undefined; created: boolean; changed: boolean }> {
  const db = database(c.env.DB);
  const config = c.get('config');
  await ensureFederatesWithTeamOf(config, db, other);
  const existing = await connectionBook.get(c.env, me.id, other.domain, other.id);
  const before = existing?.status ?? 'cancelled';
  if (action === 'connect' && before !== 'accepted' && before !== 'sent') {
    if ((await connectionBook.countActive(c.env, me.id)) >= config.brig.optSettings.setUserMaxConnections)
      throw new ApiError(brigErrors.connectionLimit);
  }
  const next = transition(action, before);
  if (next === undefined) return { row: existing, created: false, changed: false };
  let status = next;
  const told = remoteActionOf(action);
  if (told !== undefined) {
    const answer = await FederatorClient.of(config).call(other.domain, sendConnectionActionRpc, {
      from: me.id,
      ...(me.team === null ? {} : { from_team: me.team }),
      to: other.id,
      action: told,
    });
    if (answer.tag === 'NewConnectionResponseUserNotActivated') throw new ApiError(brigErrors.invalidUser);
    if (answer.tag === 'NewConnectionResponseNotFederating') throw new ApiError(brigErrors.teamsNotFederating);
    status = (answer.contents === null ? undefined : transition(answer.contents, next)) ?? next;
  }
  const row = await writeLocalSide(c, me.id, other, status, self(c));
  return { row, created: existing === undefined, changed: true };
}

/**
 * A remote user is reached only when this backend federates with their team (wire's
 * ensureFederatesWith): a remote restricted by team lets through the listed teams' members only.
 */
async function ensureFederatesWithTeamOf(config: Config, db: Db, other: QualifiedId): Promise<void> {
  const [profile] = await remoteProfiles(config, other.domain, [other.id]);
  const restriction = (await federationWith(config, db, other.domain))?.restriction;
  if (restriction?.tag !== 'restrict_by_team') return;
  if (profile?.team == null || !restriction.value.includes(profile.team))
    throw new ApiError(brigErrors.teamsNotFederating);
}

/** The local side's status after a remote user's action, undefined when it does not change. */
export function afterRemoteAction(existing: Relation | undefined, action: RemoteAction): Relation | undefined {
  return transition(action, existing ?? 'cancelled');
}
