/**
 * brig's face: what other components may ask of users, their clients and connections, and
 * accounts. Users are named by qualified ids. Every user asked about is this backend's for now
 * (callers refuse other domains first); federation will answer for others behind these functions.
 */
import type { Config } from '../../shared/config/index.js';
import type { QualifiedId } from '../api/schemas/common.js';
import type { Db } from '../db/client.js';
import { groupBy } from '../../shared/group-by.js';
import { clientStore } from './clients/client-store.js';
import { connectionStore } from './connections/connection-store.js';
import { federationWith } from './federation/federating.js';
import type { UserRow } from './users/user-json.js';
import { userStore } from './users/user-store.js';
import { richInfoStore } from './rich-info/rich-info-store.js';
import { providerStore } from './provider/provider-store.js';
import { connectionOf, type ServiceConnection } from './provider/service-connection.js';
import type { RichField } from '../db/schema.js';

/** A user's account as brig keeps it (status, team, identity, profile). */
export type { UserRow };

/** A user's account, if this backend has it. */
export function userById(db: Db, user: QualifiedId): Promise<UserRow | undefined> {
  return userStore.byId(db, user.id);
}

/** The accounts this backend has of these users. */
export function usersByIds(db: Db, users: readonly QualifiedId[]): Promise<UserRow[]> {
  const ids = users.map((u) => u.id);
  return userStore.byIds(db, ids);
}

/** Whether `user` is connected (both sides accepted) with every one of `others`. */
export async function connectedToAll(db: Db, user: QualifiedId, others: readonly QualifiedId[]): Promise<boolean> {
  const sameDomain = others.filter((o) => o.domain === user.domain).map((o) => o.id);
  const connected = await connectionStore.connectedWith(db, user.id, user.domain, sameDomain);
  // A remote connection is accepted here only once the remote side accepted it too.
  for (const [domain, remote] of groupBy(
    others.filter((o) => o.domain !== user.domain),
    (o) => o.domain,
  )) {
    const accepted = await connectionStore.acceptedTo(
      db,
      user.id,
      domain,
      remote.map((o) => o.id),
    );
    if (remote.some((o) => !accepted.has(o.id))) return false;
  }
  return others.every((o) => o.domain !== user.domain || connected.has(o.id));
}

/** The local users with a connection (of any status) to users of another backend. */
export function usersConnectedTo(db: Db, domain: string): Promise<string[]> {
  return connectionStore.usersConnectedTo(db, domain);
}

/** Forgets every connection to users of another backend (de-federation). */
export async function forgetConnectionsTo(db: Db, domain: string): Promise<void> {
  await connectionStore.deleteToDomain(db, domain).run();
}

/** Whether this backend federates with another (its strategy and remotes). */
export async function federatesWith(config: Config, db: Db, domain: string): Promise<boolean> {
  return (await federationWith(config, db, domain)) !== undefined;
}

/** Whether `blocker` has blocked `blocked` (their side of the connection says so). */
export async function hasBlocked(db: Db, blocker: QualifiedId, blocked: QualifiedId): Promise<boolean> {
  return (await connectionStore.get(db, blocker.id, blocked.domain, blocked.id))?.status === 'blocked';
}

/** Whether two users are connected (both sides accepted). */
export function areConnected(db: Db, a: QualifiedId, b: QualifiedId): Promise<boolean> {
  return connectedToAll(db, a, [b]);
}

/** The clients of these users, each as its user and client id. */
export async function clientsOf(
  db: Db,
  users: readonly QualifiedId[],
): Promise<Array<{ user: QualifiedId; client: string }>> {
  const byId = new Map(users.map((u) => [u.id, u]));
  const rows = await clientStore.listMany(db, [...byId.keys()]);
  return rows.map((r) => ({ user: byId.get(r.user)!, client: r.id }));
}

/** A user's clients and their MLS signature keys of a suite's scheme (a remote user's from their backend). */
export { mlsClientKeys, type MlsClientKey } from './mls/mls-clients.js';

/** A user's accepted connections: who sees their profile changes. */
export { contactsOf } from './users/contacts.js';
/** Marks a client active (its user fetched notifications with its id); unknown clients are ignored. */
export { touchClient } from './clients/last-active.js';

/** The client ids of another backend's users, asked of it. */
export { remoteClientIdsOf } from './clients/user-clients.js';
/** Whether a password is the user's (after a rate-limit token); a correct scrypt hash may move to argon2id. */
export { checkUserPassword } from './password/passwords.js';
/** Demands a valid second-factor code for an action when the user's team requires one (403 otherwise). */
export { enforceVerificationCode } from './auth/verification-code.js';
/** Deletes an account for good; the user, their contacts and the team admins given hear of it. */
export { deleteAccount } from './accounts/delete-account.js';
/** Where the outbox's mailbox page is served. */
export { MAILBOX_PATH } from './email/mailbox.js';
/** The outbox's mailbox page, when the outbox sender has credentials (else undefined). */
export { serveMailbox } from './email/mailbox.js';

/** Creates an account; an identity provider's users join their team (`provisioned`). */
export { type AccountInput, createAccount, defaultUserLocale } from './accounts/create-account.js';

/** Keeps an address as the user's unvalidated one and mails it an activation code. */
export { requestEmailChange } from './accounts/email-change.js';

/** A new `zuid` cookie for the user, as the `Set-Cookie` value (SSO sign-ins). */
export { newCookieHeader } from './auth/session.js';

/** An identity provider's changes to one of its users (managed fields, status, rich info). */
export { updateProvisionedUser } from './accounts/provisioned-user.js';
/** A handle as brig accepts it (2–256 of a-z0-9_.-, not reserved). */
export { isValidHandle } from './users/handles.js';
/** An address as brig accepts it. */
export { isValidEmail } from './users/user-store.js';
/** The account holding this address (activated or not). */
export function userByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return userStore.byEmail(db, email);
}
/** The account holding a handle. */
export function userByHandle(db: Db, handle: string): Promise<UserRow | undefined> {
  return userStore.byHandle(db, handle);
}
/** A user's rich info fields (none when never set). */
export async function richInfoOf(db: Db, user: string): Promise<RichField[]> {
  return (await richInfoStore.get(db, user)) ?? [];
}
/** Rich info's size as the limit counts it, and its fields as stored (empty values dropped). */
export { normalizeRichInfo, richInfoSize } from './rich-info/rich-info-json.js';
/** A SCIM user without an IdP: a pending account and its mailed invitation. */
export { inviteProvisionedUser } from './invitations/scim-invitation.js';
/** Legal hold devices (added and removed by galley only), their events, their service's cookie. */
export {
  addLegalholdDevice,
  legalholdClientId,
  legalholdCookie,
  legalholdRequestAnnounced,
  removingLegalholdDevices,
} from './legalhold/legalhold-devices.js';
/** Connections legal hold blocks (with users who have not consented) and unblocks, as changes. */
export { blockingNonConsenting, unblockingInvolving } from './legalhold/connection-blocks.js';

/** Where a service takes its bots' events; undefined when the service is gone. */
export async function serviceConnection(
  db: Db,
  ref: { id: string; provider: string },
): Promise<ServiceConnection | undefined> {
  const s = await providerStore.service(db, ref.provider, ref.id);
  return s === undefined ? undefined : connectionOf(s);
}

/** A bot's account ends (its service disowned it, or it left its conversation). */
export { deleteBotAccount } from './bots/bot-accounts.js';
