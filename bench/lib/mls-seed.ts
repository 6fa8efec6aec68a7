import { importZauthKeys } from '../../src/edge/auth/keys.js';
import { newConnectionId, signAccessToken } from '../../src/edge/auth/tokens.js';
import { ConvType, encodeGroupId } from '../../src/shared/mls/group-id.js';
import type { D1Admin, Statement } from '../../tools/lib/d1-admin.js';
import { localZauthKeys } from '../../tools/lib/zauth-keys.js';
import { type BenchMlsClient, mlsClient, SCHEME } from './mls-group.js';
import { type SeededUser, seedConversation } from './seed.js';

export interface SeededMlsConversation {
  conv: string;
  groupId: Uint8Array;
  users: SeededUser[];
  /** One MLS client per user (the API client `users[i].clients[0]`); the first, the creator's, keeps its private keys. */
  mls: BenchMlsClient[];
  /** The creator's access token bound to its client, as a device's own token is (MLS routes need the client). */
  creatorToken: string;
}

/**
 * An MLS conversation at epoch 0 (wire's group id, no group yet) whose members all have one client
 * with a registered ed25519 key (`mls_public_keys`), written straight into D1 as `seedConversation`
 * does; the group itself is made by its creator's commits, through the API.
 */
export async function seedMlsConversation(
  db: D1Admin,
  stateDir: string,
  o: { members: number; domain: string },
): Promise<SeededMlsConversation> {
  const { conv, users } = await seedConversation(db, stateDir, {
    members: o.members,
    clientsPerUser: () => 1,
    domain: o.domain,
  });
  const groupId = encodeGroupId({ version: 1, convType: ConvType.regular, conv, domain: o.domain });
  const mls: BenchMlsClient[] = [];
  for (const [i, u] of users.entries())
    mls.push(await mlsClient({ user: u.id, client: u.clients[0]!, domain: o.domain }, i === 0));
  const statements: Statement[] = [
    {
      sql: "UPDATE conversations SET protocol = 'mls', group_id = ?, receipt_mode = 0 WHERE domain = ? AND id = ?",
      params: [Buffer.from(groupId).toString('base64'), o.domain, conv],
    },
    ...mls.map((m) => ({
      sql: 'UPDATE clients SET mls_public_keys = ? WHERE user = ? AND id = ?',
      params: [JSON.stringify({ [SCHEME]: m.publicKey }), m.user, m.client],
    })),
  ];
  for (let i = 0; i < statements.length; i += 500) await db.batch(statements.slice(i, i + 500));
  const keys = await importZauthKeys(await localZauthKeys(stateDir), 1);
  const creator = users[0]!;
  const creatorToken = await signAccessToken(
    keys,
    { user: creator.id, client: creator.clients[0]!, connection: newConnectionId() },
    Math.floor(Date.now() / 1000) + 3600,
  );
  return { conv, groupId, users, mls, creatorToken };
}
