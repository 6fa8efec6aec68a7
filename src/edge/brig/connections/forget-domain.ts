import type { Db } from '../../db/client.js';
import { accountObject } from '../clients/account-object.js';
import { askEach } from '../../../shared/chunked.js';
import { remoteConnectionStore } from './remote-connection-store.js';

/**
 * Federation with `domain` ended: every local user's connections to its users go (from their
 * Account objects), then the record of who had any. Safe to run again.
 */
export async function forgetConnectionsTo(env: Env, db: Db, domain: string): Promise<void> {
  const users = await remoteConnectionStore.usersOf(db, domain);
  await askEach(users, (user) => accountObject(env, user).forgetConnectionsTo(user, domain));
  await remoteConnectionStore.forgetDomain(db, domain);
}
