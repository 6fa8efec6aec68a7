// An MLS conversation made as Wire's clients make one: users through the API (see api-seed.ts),
// each client's signature key registered with `PUT /clients/{id}`, the conversation created with
// `protocol: mls`; the group itself is then made by its creator's commits.
import { call, contactsOfFirst, inParallel, type Listening } from './api-seed.js';
import { type BenchMlsClient, mlsClient, SCHEME } from './mls-group.js';
import type { SeededUser } from './seed.js';

export interface MlsConversation {
  conv: string;
  groupId: Uint8Array;
  users: SeededUser[];
  /** One MLS client per user (the API client `users[i].clients[0]`); the first, the creator's, keeps its private keys. */
  mls: BenchMlsClient[];
  /** The creator's access token, bound to its client (MLS routes need the client). */
  creatorToken: string;
}

export async function apiMlsConversation(
  backend: Listening,
  o: { members: number; domain: string },
): Promise<MlsConversation> {
  const users = await contactsOfFirst(backend, o.members, o.domain);
  const mls: BenchMlsClient[] = await inParallel(users.length, 8, async (i) => {
    const u = users[i]!;
    const m = await mlsClient({ user: u.id, client: u.clients[0]!, domain: o.domain }, i === 0);
    await call(backend.publicUrl, `/v8/clients/${u.clients[0]}`, {
      method: 'PUT',
      token: u.token,
      body: { mls_public_keys: { [SCHEME]: m.publicKey } },
    });
    return m;
  });
  const creator = users[0]!;
  const created = await call(backend.publicUrl, '/v8/conversations', {
    method: 'POST',
    token: creator.token,
    body: { protocol: 'mls', qualified_users: [] },
  });
  return {
    conv: created.qualified_id.id,
    groupId: new Uint8Array(Buffer.from(created.group_id, 'base64')),
    users,
    mls,
    creatorToken: creator.token,
  };
}
