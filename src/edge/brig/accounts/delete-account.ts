import { type Config, localDomain } from '../../../shared/config/index.js';
import type { AccessClaims } from '../../auth/tokens.js';
import type { Db } from '../../db/client.js';
import { connectionEvent } from '../connections/connection-events.js';
import { forgetAccountEffect } from '../../gundeck/face.js';
import { commitChange, joinChanges } from '../../effects/commit-change.js';
import type { Effect } from '../../effects/effect.js';
import { publish, publishEffect } from '../../events/publish.js';
import { userEvents } from '../../events/user-events.js';
import { leavingAllConversations, removeFromTeams } from '../../galley/face.js';
import { cookieRecords } from '../auth/cookie-records.js';
import { clientStore } from '../clients/client-store.js';
import { forgetAccountMaterialEffect } from '../clients/account-object.js';
import { connectionBook, forgetSidesEffect } from '../connections/connection-book.js';
import { richInfoStore } from '../rich-info/rich-info-store.js';
import type { UserRow } from '../users/user-json.js';
import { userStore } from '../users/user-store.js';
import { invitationStore } from '../invitations/invitation-store.js';
import { remoteContactsTold, rescindRemoteRequests } from '../connections/deleted-user-connections.js';
import { renaming } from '../users/user-names.js';

/**
 * Deletes an account for good, as one change: the profile becomes a tombstone (status deleted,
 * placeholder name, email and handle freed), and its clients, prekeys, cookies, properties,
 * consents, rich info, connections, team membership and conversation memberships go; with it,
 * `user.delete` reaches the user and their contacts, the conversations hear it, and then `also`
 * (what the caller's change adds). Users the account had asked to connect see the request
 * cancelled (transient, after the change).
 */
export async function deleteAccount(
  env: Env,
  db: Db,
  config: Config,
  user: UserRow,
  origin?: AccessClaims,
  /** Team admins told of every conversation the user leaves (team member removal). */
  teamAdmins: readonly string[] = [],
  also: readonly Effect[] = [],
): Promise<void> {
  const all = await connectionBook.withStatus(env, user.id);
  const rows = all.filter((r) => r.status === 'accepted' || r.status === 'sent');
  const domain = localDomain(config);
  const accepted = rows.filter((r) => r.status === 'accepted');
  const contacts = accepted.filter((r) => r.toDomain === domain).map((r) => ({ user: r.toUser }));
  // The cookies first: should the change fail, the user signs in again, never the reverse. The
  // rest of the Account object goes after the change (forget-account-material).
  await cookieRecords.revoke(env, user.id);
  const account = {
    statements: [
      userStore.update(db, user.id, {
        status: 'deleted',
        name: 'default',
        accentId: 0,
        assets: [],
        handle: null,
        email: null,
        emailKey: null,
        emailUnvalidated: null,
        password: null,
        ssoId: null,
      }),
      clientStore.deleteAllOf(db, user.id),
      richInfoStore.deleteStatement(db, user.id),
      removeFromTeams(db, user.id),
      invitationStore.removeForInvitee(db, user.id),
    ],
    effects: [
      forgetAccountEffect({ user: user.id }),
      // The user's own sides go with the rest of their Account object; the other sides here go too.
      forgetAccountMaterialEffect({ user: user.id }),
      forgetSidesEffect({
        users: all.filter((r) => r.toDomain === domain).map((r) => r.toUser),
        domain,
        to: user.id,
        at: Date.now(),
      }),
    ],
  };
  const deleted = publishEffect([{ user: user.id }, ...contacts], userEvents.delete(user.id, domain), { origin });
  const change = joinChanges(
    account,
    await leavingAllConversations(env, config, { id: user.id, domain }, teamAdmins),
    { statements: [], effects: [deleted] },
    remoteContactsTold(
      db,
      user.id,
      all.filter((r) => r.toDomain !== domain),
    ),
    { statements: [], effects: [...also] },
  );
  const gone = { emailKey: null, handle: null };
  await renaming(env, user.id, user, gone, () => commitChange(env, config, change));
  const now = Date.now();
  const asked = rows.filter((r) => r.status === 'sent');
  await rescindRemoteRequests(
    config,
    user.id,
    asked.filter((r) => r.toDomain !== domain),
  );
  for (const asked of rows.filter((r) => r.status === 'sent' && r.toDomain === domain)) {
    const cancelled = {
      ...asked,
      fromUser: asked.toUser,
      toUser: user.id,
      toDomain: domain,
      status: 'cancelled' as const,
      lastUpdate: now,
    };
    await publish(env, config, [{ user: asked.toUser }], connectionEvent(cancelled), { transient: true });
  }
}
