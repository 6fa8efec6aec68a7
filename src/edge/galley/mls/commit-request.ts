import type { Context } from 'hono';
import { toBase64 } from '../../../shared/base64.js';
import type { CommitBundle } from '../../../shared/mls/bundle.js';
import { readCommit, signedPart, verifyPathLeafSignature } from '../../../shared/mls/commit.js';
import type { CommitRequest, GroupClient, MlsSender } from '../../../shared/mls/delivery.js';
import { readGroupInfo } from '../../../shared/mls/group-info.js';
import { credentialIdentity } from '../../../shared/mls/identity.js';
import { protocolError } from '../../../shared/mls/mls-error.js';
import { isSupportedSuite } from '../../../shared/mls/suites.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { addedClients, mlsKeyLookup, requireWholeUsers } from './added-clients.js';
import { requireFewUsers } from './added-users-limit.js';
import { parsed } from './mls-failure.js';
import { deps } from '../../api/deps.js';
import type { QualifiedId } from '../../api/schemas/common.js';

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
  /** Which of these users are the conversation's members, whose clients the group holds once it has started. */
  membersAmong: (users: readonly QualifiedId[]) => Promise<ReadonlySet<string>>;
  /**
   * Whether the conversation's own MLS group (not a subconversation's, nor a mixed one's) may be
   * at epoch 0: its first commit starts from an empty group, so the committer's user counts as
   * added too, as in wire-server.
   */
  firstCommit: boolean;
  /** Whether any of these clients is in the group already, when the group is at `epoch`. */
  holds: (epoch: number, clients: GroupClient[]) => Promise<boolean>;
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
    const s = commit.sender;
    let senderLeaf: number | 'external';
    if (s.senderType === 'member') senderLeaf = s.leafIndex;
    else if (s.senderType === 'new_member_commit') senderLeaf = 'external';
    else throw protocolError('Unsupported commit sender');

    // The path leaf's key is compared with the caller's registered key by the object, after it
    // checked that the sender leaf is the caller's (wire-server's order).
    let pathLeafOfSender = true;
    // Only the sender's own key: its user's other clients and key packages matter for a first commit only.
    const registered = await deps(c).users.mlsSignatureKey(
      { id: sender.user, domain: sender.domain },
      sender.client,
      info.suite,
    );
    // The committer signs the new epoch's GroupInfo from its leaf; an external commit's joiner, from the leaf it takes.
    const joinerLeaf = senderLeaf === 'external' ? info.signer : undefined;
    if (senderLeaf !== 'external' && info.signer !== senderLeaf)
      throw protocolError('The GroupInfo is signed by another member than the committer');
    if (commit.pathLeaf !== undefined) {
      if (!(await verifyPathLeafSignature(bundle.commit, info.suite, joinerLeaf ?? (senderLeaf as number))))
        throw new ApiError(mlsErrors.mlsInvalidLeafNodeSignature);
      pathLeafOfSender =
        equalB64(commit.pathLeaf.signaturePublicKey, registered) &&
        clientKey(clientOf(commit.pathLeaf.credential)) === clientKey(sender);
    } else if (senderLeaf === 'external') throw protocolError('An external commit needs an update path');

    const groupId = toBase64(commit.groupId);
    const references = commit.references.map((r) => toBase64(r));
    const adds = await addedClients(
      keysOf,
      commit.adds.map((a) => a.bytes),
      info.suite,
      (clients) => inGroup.holds(Number(commit.epoch), clients),
    );
    const first = inGroup.firstCommit && commit.epoch === 0n && senderLeaf !== 'external';
    const committer = { user: sender.user, domain: sender.domain, client: sender.client };
    const whole = [...(first ? [committer] : []), ...adds, ...(await referenced(references))];
    requireFewUsers(whole);
    const users = [...new Map(whole.map((a) => [`${a.domain}/${a.user}`, { id: a.user, domain: a.domain }])).values()];
    await requireWholeUsers(keysOf, whole, first ? new Set() : await inGroup.membersAmong(users));

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
      addOrder: commit.addOrder.map((at) => (typeof at === 'number' ? at : toBase64(at))),
      joinerLeaf,
      pathLeafOfSender,
      suite: info.suite,
      commit: bundle.commit.bytes,
      signed: { ...signedPart(bundle.commit), key: registered },
      context: info.context,
      groupInfo: bundle.groupInfo.bytes,
      welcome: bundle.welcome?.bytes,
      application:
        bundle.privateMessage?.message.contentType === 'application' ? bundle.privateMessage.bytes : undefined,
      ttlSeconds: config.gundeck.settings.notificationTTL,
    };
  });
}
