import { toBase64 } from '../../../shared/base64.js';
import type { GroupClient } from '../../../shared/mls/delivery.js';
import { readKeyPackage } from '../../../shared/mls/key-package.js';
import { protocolError } from '../../../shared/mls/mls-error.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { requireFewUsers } from './added-users-limit.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import type { MlsClientKey, UserAccess } from '../../api/access/user-access.js';

const userKey = (c: GroupClient) => `${c.domain}/${c.user}`;

/** Users' MLS clients and keys of one suite, each user asked once (remote users through their backend). */
export type MlsKeyLookup = (user: QualifiedId) => Promise<MlsClientKey[]>;

export function mlsKeyLookup(users: UserAccess, suite: number): MlsKeyLookup {
  const asked = new Map<string, Promise<MlsClientKey[]>>();
  return (user) => {
    const key = `${user.domain}/${user.id}`;
    let keys = asked.get(key);
    if (keys === undefined) asked.set(key, (keys = users.mlsClientKeys(user, suite)));
    return keys;
  };
}

/**
 * The clients that key packages (inline in a commit, or in an Add proposal) add: each package
 * valid and of the group's suite, naming a client that is not in the group already
 * (`alreadyIn`: a `mls-protocol-error`, found before the keys are looked at, as wire-server
 * does) and that registered the package's leaf key, here or on its user's backend
 * (403 `mls-identity-mismatch` otherwise).
 */
export async function addedClients(
  keysOf: MlsKeyLookup,
  packages: readonly Uint8Array[],
  suite: number,
  alreadyIn: (clients: GroupClient[]) => Promise<boolean> = async () => false,
): Promise<GroupClient[]> {
  const read: Array<{ client: GroupClient; signatureKey: Uint8Array }> = [];
  for (const bytes of packages) {
    const kp = await readKeyPackage(bytes);
    if (!kp.ok) {
      if (kp.reason === 'invalid-leaf-node-signature') throw new ApiError(mlsErrors.mlsInvalidLeafNodeSignature);
      throw protocolError(kp.message);
    }
    const { identity, signatureKey } = kp.keyPackage;
    if (kp.keyPackage.suite !== suite) throw protocolError('The key package suite is not the group’s');
    read.push({ client: { user: identity.user, domain: identity.domain, client: identity.client }, signatureKey });
  }
  const added = read.map((r) => r.client);
  requireFewUsers(added);
  if (added.length > 0 && (await alreadyIn(added))) throw protocolError('Client is already a member of the group');
  for (const { client, signatureKey } of read) {
    const known = (await keysOf({ id: client.user, domain: client.domain })).find((cl) => cl.client === client.client);
    if (known === undefined) throw new ApiError(mlsErrors.mlsClientMismatch);
    if (known.signatureKey !== toBase64(signatureKey)) throw new ApiError(mlsErrors.mlsIdentityMismatch);
  }
  return added;
}

/**
 * A commit adds a user none of whose clients is in the group with every client of theirs that has
 * a key package left, and with no client they no longer have (409 `mls-client-mismatch`
 * otherwise), whether inline or by referenced proposals; a user already in the group may get any
 * of their clients added. As wire-server's, the check leaves out clients whose last package was
 * just claimed, since the committer may hold it.
 */
export async function requireWholeUsers(
  keysOf: MlsKeyLookup,
  adds: readonly GroupClient[],
  present: ReadonlySet<string>,
): Promise<void> {
  const byUser = new Map<string, GroupClient[]>();
  for (const a of adds) byUser.set(userKey(a), [...(byUser.get(userKey(a)) ?? []), a]);
  for (const [user, added] of byUser) {
    if (present.has(user)) continue;
    const { domain, user: id } = added[0]!;
    const clients = await keysOf({ id, domain });
    const required = clients.filter((cl) => cl.hasKeyPackages);
    if (
      required.some((cl) => !added.some((a) => a.client === cl.client)) ||
      added.some((a) => !clients.some((cl) => cl.client === a.client))
    )
      throw new ApiError(mlsErrors.mlsClientMismatch);
  }
}
