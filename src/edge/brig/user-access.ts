// brig's side of `UserAccess`: what other components ask of users, answered from brig's stores.
import type { Config } from '../../shared/config/index.js';
import type { Account, UserAccess } from '../api/access/user-access.js';
import type { Db } from '../db/client.js';
import { deleteAccount } from './accounts/delete-account.js';
import { enforceVerificationCode } from './auth/verification-code.js';
import { createBotAccount, deleteBotAccount } from './bots/bot-accounts.js';
import { botClientId } from './clients/client-id.js';
import { remoteClientIdsOf } from './clients/user-clients.js';
import { touchClient } from './clients/last-active.js';
import { clientStore } from './clients/client-store.js';
import { connectedToAll } from './connections/connected-to-all.js';
import { connectionBook } from './connections/connection-book.js';
import { forgetConnectionsTo } from './connections/forget-domain.js';
import { remoteConnectionStore } from './connections/remote-connection-store.js';
import { federationWith } from './federation/federating.js';
import { blockingNonConsenting, unblockingInvolving } from './legalhold/connection-blocks.js';
import {
  addLegalholdDevice,
  legalholdClientId,
  legalholdCookie,
  legalholdRequestAnnounced,
  removingLegalholdDevices,
} from './legalhold/legalhold-devices.js';
import { mlsClientKeys, mlsSignatureKey } from './mls/mls-clients.js';
import { checkUserPassword } from './password/passwords.js';
import { contactsOf } from './users/contacts.js';
import type { UserRow } from './users/user-json.js';
import { userStore } from './users/user-store.js';

const accountOf = (u: UserRow): Account => ({
  id: u.id,
  name: u.name,
  status: u.status,
  team: u.team,
  activated: u.activated,
  supportedProtocols: u.supportedProtocols,
  conferenceCalling: u.conferenceCalling,
  hasPassword: u.password !== null,
  ssoId: u.ssoId,
  handle: u.handle,
  accentId: u.accentId,
  locale: u.locale,
  bot: u.userType === 'bot',
});

/** brig's answers for one request's bindings. */
export function userAccess(env: Env, db: Db, config: Config): UserAccess {
  const row = (user: string) => userStore.byId(db, user);
  return {
    account: async (user) => {
      const u = await row(user.id);
      return u === undefined ? undefined : accountOf(u);
    },
    accounts: async (users) =>
      (
        await userStore.byIds(
          db,
          users.map((u) => u.id),
        )
      ).map(accountOf),
    connectedToAll: (user, others) => connectedToAll(env, user, others),
    areConnected: (a, b) => connectedToAll(env, a, [b]),
    hasBlocked: async (blocker, blocked) =>
      (await connectionBook.get(env, blocker.id, blocked.domain, blocked.id))?.status === 'blocked',
    contactsOf: (user) => contactsOf(env, user),
    usersConnectedTo: (domain) => remoteConnectionStore.usersOf(db, domain),
    forgetConnectionsTo: (domain) => forgetConnectionsTo(env, db, domain),
    federatesWith: async (domain) => (await federationWith(config, db, domain)) !== undefined,
    clientsOf: async (users) => {
      const byId = new Map(users.map((u) => [u.id, u]));
      const rows = await clientStore.listMany(db, [...byId.keys()]);
      return rows.map((r) => ({ user: byId.get(r.user)!, client: r.id }));
    },
    remoteClientIdsOf: (domain, users) => remoteClientIdsOf(config, domain, users),
    mlsClientKeys: (user, suite) => mlsClientKeys(env, config, db, user, suite),
    mlsSignatureKey: (user, client, suite) => mlsSignatureKey(env, config, db, user, client, suite),
    touchClient: (user, client) => touchClient(db, user, client),
    checkPassword: async (user, password) => {
      const u = await row(user);
      return u !== undefined && checkUserPassword(env, db, config, { user }, u, password);
    },
    enforceVerificationCode: async (user, action, code) => {
      const u = await row(user);
      if (u !== undefined) await enforceVerificationCode(db, config, u, action, code);
    },
    deleteAccount: async (user, o = {}) => {
      const u = await row(user);
      if (u !== undefined) await deleteAccount(env, db, config, u, o.origin, o.teamAdmins, o.also);
    },
    legalholdClientId,
    legalholdRequestAnnounced: (o) => legalholdRequestAnnounced(env, config, db, o),
    addLegalholdDevice: (o) => addLegalholdDevice(env, config, db, o),
    removingLegalholdDevices: (o) => removingLegalholdDevices(env, config, db, o),
    legalholdCookie: (user) => legalholdCookie(env, config, user),
    blockingNonConsenting: (user) => blockingNonConsenting(env, config, db, user),
    unblockingInvolving: (user) => unblockingInvolving(env, config, user),
    botClientId,
    createBotAccount: (bot) => createBotAccount(env, db, bot),
    deleteBotAccount: (bot) => deleteBotAccount(env, db, bot),
  };
}
