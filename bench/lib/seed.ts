import type { D1Admin, Statement } from '../../tools/lib/d1-admin.js';
import { importZauthKeys } from '../../src/edge/auth/keys.js';
import { newConnectionId, signAccessToken } from '../../src/edge/auth/tokens.js';
import { localZauthKeys } from '../../tools/lib/zauth-keys.js';

export interface SeededUser {
  id: string;
  clients: string[];
  token: string;
}

const hex16 = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .replace(/^0+/, '') || '1';

/**
 * Benchmark fixture: users with clients, all members of one group conversation, written straight
 * into the backend's D1 (creating thousands through the API would measure password hashing), and
 * an access token per user signed with the backend's own key.
 */
export async function seedConversation(
  db: D1Admin,
  stateDir: string,
  o: { members: number; clientsPerUser: (i: number) => number; domain: string },
): Promise<{ conv: string; users: SeededUser[] }> {
  const keys = await importZauthKeys(await localZauthKeys(stateDir), 1);
  const now = Date.now();
  const conv = crypto.randomUUID();
  const users: SeededUser[] = [];
  for (let i = 0; i < o.members; i++) {
    const id = crypto.randomUUID();
    const clients = Array.from({ length: o.clientsPerUser(i) }, hex16);
    const token = await signAccessToken(
      keys,
      { user: id, connection: newConnectionId() },
      Math.floor(now / 1000) + 3600,
    );
    users.push({ id, clients, token });
  }
  const statements: Statement[] = [
    {
      sql: 'INSERT INTO conversations (domain, id, type, creator, name, created_at) VALUES (?, ?, 0, ?, ?, ?)',
      params: [o.domain, conv, users[0]!.id, `bench ${o.members}`, now],
    },
  ];
  for (const u of users) {
    statements.push(
      {
        sql: "INSERT INTO users (id, name, locale, status, activated, created_at) VALUES (?, 'Bench', 'en', 'active', 1, ?)",
        params: [u.id, now],
      },
      // Placed in a notification shard as registration places them (objects/notifications/placement-store.ts).
      {
        sql: `UPDATE notification_placement SET home = home + (filled >= per_object),
                filled = CASE WHEN filled >= per_object THEN 1 ELSE filled + 1 END WHERE id = 0`,
        params: [],
      },
      {
        sql: 'INSERT INTO notification_homes (user, home) SELECT ?, home FROM notification_placement WHERE id = 0',
        params: [u.id],
      },
      {
        sql: 'INSERT INTO conversation_members (conv_domain, conv_id, user_domain, user_id, role, joined_at) VALUES (?, ?, ?, ?, ?, ?)',
        params: [o.domain, conv, o.domain, u.id, 'wire_admin', now],
      },
      ...u.clients.map((cl) => ({
        sql: "INSERT INTO clients (user, id, type, created_at) VALUES (?, ?, 'permanent', ?)",
        params: [u.id, cl, now],
      })),
    );
  }
  for (let i = 0; i < statements.length; i += 500) await db.batch(statements.slice(i, i + 500));
  return { conv, users };
}
