import { toBase64 } from '../../../shared/base64.js';
import type { GroupClient } from '../../../shared/mls/delivery.js';
import { readKeyPackage } from '../../../shared/mls/key-package.js';
import { protocolError } from '../../../shared/mls/mls-error.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';
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
 * valid and of the group's suite, naming a client (here or on its user's backend) that registered
 * the package's leaf key (403 `mls-identity-mismatch` otherwise).
 */
export async function addedClients(
  keysOf: MlsKeyLookup,
  packages: readonly Uint8Array[],
  suite: number,
): Promise<GroupClient[]> {
  const added: GroupClient[] = [];
  for (const bytes of packages) {
    const read = await readKeyPackage(bytes);
    if (!read.ok) {
      if (read.reason === 'invalid-leaf-node-signature') throw new ApiError(mlsErrors.mlsInvalidLeafNodeSignature);
      throw protocolError(read.message);
    }
    const { identity, signatureKey } = read.keyPackage;
    if (read.keyPackage.suite !== suite) throw protocolError('The key package suite is not the group’s');
    const clients = await keysOf({ id: identity.user, domain: identity.domain });
    const known = clients.find((cl) => cl.client === identity.client);
    if (known === undefined) throw new ApiError(mlsErrors.mlsClientMismatch);
    if (known.signatureKey !== toBase64(signatureKey)) throw new ApiError(mlsErrors.mlsIdentityMismatch);
    added.push({ user: identity.user, domain: identity.domain, client: identity.client });
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
