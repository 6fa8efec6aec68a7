import { and, eq } from 'drizzle-orm';
import type { DrizzleD1Database } from 'drizzle-orm/d1';
import {
  connections,
  conversationMembers,
  conversations,
  cookies,
  mlsKeyPackages,
  prekeys,
  userConsents,
  userProperties,
} from '../db/schema.js';
import type { LegacyAccountRows } from './material.js';

/**
 * What versions before the Account object kept of a user in D1: prekeys, key packages, cookies,
 * their side of each connection, properties and consents (`prekeys`, `mls_key_packages`,
 * `cookies`, `connections`, `user_properties`, `user_consents`). Nothing writes them any more; each user's rows move
 * into their Account object (its first call, or the sweep of brig/clients/move-material.ts),
 * which deletes them here.
 */
/** wire's conversation type of a user's self conversation. */
const SELF_CONVERSATION = 1;

export const legacyAccountStore = {
  async ofUser(db: DrizzleD1Database, user: string, domain?: string): Promise<LegacyAccountRows> {
    const [keys, packages, sessions, sides, properties, consents, memberships] = await db.batch([
      db
        .select({ client: prekeys.client, id: prekeys.id, key: prekeys.key })
        .from(prekeys)
        .where(eq(prekeys.user, user)),
      db
        .select({
          ref: mlsKeyPackages.ref,
          client: mlsKeyPackages.client,
          cipherSuite: mlsKeyPackages.cipherSuite,
          data: mlsKeyPackages.data,
          notAfter: mlsKeyPackages.notAfter,
        })
        .from(mlsKeyPackages)
        .where(eq(mlsKeyPackages.user, user)),
      db.select().from(cookies).where(eq(cookies.user, user)),
      db.select().from(connections).where(eq(connections.fromUser, user)),
      db
        .select({ key: userProperties.key, value: userProperties.value })
        .from(userProperties)
        .where(eq(userProperties.user, user)),
      db
        .select({ type: userConsents.type, value: userConsents.value, source: userConsents.source })
        .from(userConsents)
        .where(eq(userConsents.user, user)),
      // A local user's domain, when the object has not learnt it, is that of their self conversation
      // (its id is theirs), which earlier versions made in D1 with the account.
      db
        .select({ domain: conversationMembers.convDomain, id: conversationMembers.convId })
        .from(conversationMembers)
        .where(
          and(
            eq(
              conversationMembers.userDomain,
              domain ??
                db
                  .select({ domain: conversations.domain })
                  .from(conversations)
                  .where(and(eq(conversations.id, user), eq(conversations.type, SELF_CONVERSATION)))
                  .limit(1),
            ),
            eq(conversationMembers.userId, user),
          ),
        ),
    ]);
    return {
      prekeys: keys,
      keyPackages: packages,
      cookies: sessions,
      connections: sides,
      properties,
      consents,
      conversations: memberships,
    };
  },

  async forget(db: DrizzleD1Database, user: string): Promise<void> {
    await db.batch([
      db.delete(prekeys).where(eq(prekeys.user, user)),
      db.delete(mlsKeyPackages).where(eq(mlsKeyPackages.user, user)),
      db.delete(cookies).where(eq(cookies.user, user)),
      db.delete(connections).where(eq(connections.fromUser, user)),
      db.delete(userProperties).where(eq(userProperties.user, user)),
      db.delete(userConsents).where(eq(userConsents.user, user)),
    ]);
  },

  /** Some users who still have rows here (at most `limit`). */
  async users(db: DrizzleD1Database, limit: number): Promise<string[]> {
    // One statement per table: D1 allows few terms in a compound SELECT.
    const found = await db.batch([
      db.selectDistinct({ user: prekeys.user }).from(prekeys).limit(limit),
      db.selectDistinct({ user: mlsKeyPackages.user }).from(mlsKeyPackages).limit(limit),
      db.selectDistinct({ user: cookies.user }).from(cookies).limit(limit),
      db.selectDistinct({ user: connections.fromUser }).from(connections).limit(limit),
      db.selectDistinct({ user: userProperties.user }).from(userProperties).limit(limit),
      db.selectDistinct({ user: userConsents.user }).from(userConsents).limit(limit),
    ]);
    return [...new Set(found.flat().map((r) => r.user))].slice(0, limit);
  },
};
