import type { Context } from 'hono';
import { toBase64 } from '../../../shared/base64.js';
import type { CommitBundle } from '../../../shared/mls/bundle.js';
import { readCommit, verifyPathLeafSignature } from '../../../shared/mls/commit.js';
import type { CommitRequest, GroupClient, GroupLeaf, MlsSender } from '../../../shared/mls/delivery.js';
import { readGroupInfo } from '../../../shared/mls/group-info.js';
import { credentialIdentity } from '../../../shared/mls/identity.js';
import { protocolError } from '../../../shared/mls/mls-error.js';
import { isSupportedSuite } from '../../../shared/mls/suites.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { addedClients, mlsKeyLookup, requireWholeUsers } from './added-clients.js';
import { parsed } from './mls-failure.js';
import { deps } from '../../api/deps.js';

const clientKey = (c: GroupClient) => `${c.domain}/${c.user}/${c.client}`;
const equalB64 = (bytes: Uint8Array, b64: string | undefined) => b64 !== undefined && toBase64(bytes) === b64;

/** The client a credential names; a `mls-protocol-error` for one that names none. */
function clientOf(credential: Parameters<typeof credentialIdentity>[0]): GroupClient {
  const read = credentialIdentity(credential);
  if (!read.ok) throw protocolError(read.message);
  return read.identity;
}

/** Who counts as in the group when a commit must add users whole (`domain/user` keys). */
interface UsersInGroup {
  /** The conversation's members, whose clients the group holds once it has started. */
  members: ReadonlySet<string>;
  /**
   * Whether the conversation's own MLS group (not a subconversation's, nor a mixed one's) may be
   * at epoch 0: its first commit starts from an empty group, so the committer's user counts as
   * added too, as in wire-server.
   */
  firstCommit: boolean;
}

/**
 * Reads and checks what of a commit bundle needs no group state, and says what the bundle asks of
 * the group: the conversation's object checks the rest in the group's order.
 */
export async function commitRequest(
  c: Context<AppEnv>,
  bundle: CommitBundle,
  conv: { id: string; domain: string },
  sender: MlsSender,
  inGroup: UsersInGroup,
  referenced: (refs: string[]) => Promise<GroupClient[]>,
): Promise<Omit<CommitRequest, 'mayRemoveOthers'>> {
  const config = c.get('config');
  const localDomain = deps(c).domain;
  return parsed(async () => {
    const commit = await readCommit(bundle.commit);
    const info = readGroupInfo(bundle.groupInfo);
    if (!isSupportedSuite(info.suite)) throw protocolError('Unsupported ciphersuite');
    const keysOf = mlsKeyLookup(deps(c).users, info.suite);
    if (toBase64(info.groupId) !== toBase64(commit.groupId)) throw protocolError('GroupInfo of another group');
    if (info.epoch !== commit.epoch + 1n) throw protocolError('GroupInfo of another epoch');
    if (sender.client === '') throw protocolError('The sender has no client');
    const leaves: GroupLeaf[] = info.leaves.map((l) => ({ index: l.index, ...clientOf(l.credential) }));
    // A client at two leaves (added again) is found before its key package is looked at, as wire does.
    if (new Set(leaves.map(clientKey)).size !== leaves.length) throw protocolError('A client is in the group twice');
    const s = commit.sender;
    let senderLeaf: number | 'external';
    if (s.senderType === 'member') senderLeaf = s.leafIndex;
    else if (s.senderType === 'new_member_commit') senderLeaf = 'external';
    else throw protocolError('Unsupported commit sender');

    // The path leaf's key is compared with the caller's registered key by the object, after it
    // checked that the sender leaf is the caller's (wire-server's order).
    let pathKeyRegistered = true;
    if (commit.pathLeaf !== undefined) {
      const at = senderLeaf === 'external' ? leaves.find((l) => clientKey(l) === clientKey(sender))?.index : senderLeaf;
      if (at === undefined || !(await verifyPathLeafSignature(bundle.commit, info.suite, at)))
        throw new ApiError(mlsErrors.mlsInvalidLeafNodeSignature);
      const mine = await keysOf({ id: sender.user, domain: sender.domain });
      const registered = mine.find((cl) => cl.client === sender.client)?.signatureKey;
      pathKeyRegistered = equalB64(commit.pathLeaf.signaturePublicKey, registered);
    } else if (senderLeaf === 'external') throw protocolError('An external commit needs an update path');

    const groupId = toBase64(commit.groupId);
    const references = commit.references.map((r) => toBase64(r));
    const adds = await addedClients(
      keysOf,
      commit.adds.map((a) => a.bytes),
      info.suite,
    );
    const first = inGroup.firstCommit && commit.epoch === 0n && senderLeaf !== 'external';
    const committer = { user: sender.user, domain: sender.domain, client: sender.client };
    await requireWholeUsers(
      keysOf,
      [...(first ? [committer] : []), ...adds, ...(await referenced(references))],
      first ? new Set() : inGroup.members,
    );

    return {
      conv,
      groupId,
      localDomain,
      sender,
      epoch: Number(commit.epoch),
      senderLeaf,
      references,
      removes: commit.removes,
      adds,
      pathKeyRegistered,
      suite: info.suite,
      leaves,
      commit: bundle.commit.bytes,
      groupInfo: bundle.groupInfo.bytes,
      welcome: bundle.welcome?.bytes,
      application:
        bundle.privateMessage?.message.contentType === 'application' ? bundle.privateMessage.bytes : undefined,
      ttlSeconds: config.gundeck.settings.notificationTTL,
    };
  });
}
