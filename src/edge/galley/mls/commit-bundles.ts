import type { Context } from 'hono';
import { type CommitBundle, splitCommitBundle } from '../../../shared/mls/bundle.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { self } from '../../api/self.js';
import { endpoint } from '../../api/endpoint.js';
import {
  FEDERATED_CALL_ERRORS,
  federationErrors,
  nonFederatingBackendsSpec,
  unreachableBackendsSpec,
} from '../../api/errors/federation.js';
import { commonErrors } from '../../api/errors/common.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { json } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { managesChannel, requireAddMembers } from '../conversations/access-check.js';
import { checkInvitees } from '../conversations/invitees.js';
import { roleAllows } from '../conversations/roles.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { conversationObject } from '../conversations/conversation-object.js';
import { commitRequest } from './commit-request.js';
import type { GroupClient, MlsSender } from '../../../shared/mls/delivery.js';
import { type GroupTarget, groupStanding, groupTarget } from './group-conversation.js';
import { sendMlsThroughOwner, sendMlsCommitBundleRpc } from '../federation/mls-through-owner.js';
import { requireAllowedSuite } from './team-suites.js';
import { storeOne2OneOnFirstCommit } from './one2one-first-commit.js';
import { failedToSend, mlsBody, mlsSent } from './mls-body.js';
import { parsed, refusalError } from './mls-failure.js';
import { requireMls } from './mls-enabled.js';
import type { ConversationEvent } from '../federation/conversation-updated.js';
import { mlsTold, unreachableRecipients } from '../federation/mls-remote.js';
import { settleRecorded } from '../../effects/commit-change.js';
import type { Effect } from '../../effects/effect.js';
import { requireFederating } from '../federation/remote-members.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { refuseLegalholdInMls } from '../legalhold/join-guard.js';
import { deps } from '../../api/deps.js';

/**
 * `POST /mls/commit-bundles`: a commit, the GroupInfo after it and optionally a Welcome (and an
 * application message), as concatenated MLSMessages. The edge reads and checks what needs no group
 * state; the conversation's object orders the commit against the group and applies it.
 */
export const postCommitBundle = endpoint(
  {
    name: 'mls-commit-bundle',
    method: 'post',
    path: '/mls/commit-bundles',
    from: 5,
    request: { body: mlsBody },
    errors: [
      mlsErrors.mlsNotEnabled,
      mlsErrors.mlsProtocolError,
      mlsErrors.mlsStaleMessage,
      mlsErrors.mlsProposalNotFound,
      mlsErrors.mlsCommitMissingReferences,
      mlsErrors.mlsClientMismatch,
      mlsErrors.mlsSelfRemovalNotAllowed,
      mlsErrors.mlsIdentityMismatch,
      mlsErrors.mlsInvalidLeafNodeIndex,
      mlsErrors.mlsInvalidLeafNodeSignature,
      mlsErrors.mlsClientSenderUserMismatch,
      mlsErrors.mlsUnsupportedMessage,
      galleyErrors.noConversation,
      galleyErrors.actionDenied,
      galleyErrors.invalidOp,
      legalholdErrors.mlsNotAllowed,
      commonErrors.payloadTooLarge,
      ...FEDERATED_CALL_ERRORS,
      federationErrors.disabledForProtocol,
      nonFederatingBackendsSpec,
      unreachableBackendsSpec,
    ],
    responses: { 201: { description: 'Commit accepted and forwarded', ...json(mlsSent) } },
  },
  async (c) => {
    requireMls(c);
    const me = self(c);
    if (me.client === undefined) throw new ApiError(mlsErrors.mlsProtocolError, 'The sender has no client');
    const body = new Uint8Array(await c.req.arrayBuffer());
    const bundle = await parsed(() => splitCommitBundle(body));
    const target = groupTarget(c, bundle.commit.content.groupId, { remote: true });
    const local = deps(c).domain;
    if (target.id.domain !== local)
      return c.json(await sendMlsThroughOwner(c, target, body, sendMlsCommitBundleRpc), 201);
    const sender = { user: me.user, domain: local, client: me.client, connection: me.connection };
    return c.json(await acceptCommitBundle(c, sender, bundle, target), 201);
  },
);

/**
 * A commit bundle of a group owned here, from a local client or (through send-mls-commit-bundle)
 * a remote one: checked, applied in the group's order by the conversation's object, and told to
 * the members here and on other backends. Returns the events it caused and its time.
 */
export async function acceptCommitBundle(c: Context<AppEnv>, sender: MlsSender, bundle: CommitBundle, at: GroupTarget) {
  const local = deps(c).domain;
  const remote = sender.domain === local ? undefined : { id: sender.user, domain: sender.domain };
  const target = await groupStanding(c, at, remote);
  const { id: conv, conv: row, me } = target;
  const inGroup = {
    membersAmong: target.membersAmong,
    firstCommit: row.protocol === 'mls' && row.epoch === 0 && target.subconv === undefined,
    holds: target.holds,
  };
  const db = database(c.env.DB);
  // Adds committed by reference are checked like inline ones (their packages were at proposal time).
  let referencedAdds: GroupClient[] = [];
  const referenced = async (refs: string[]) =>
    (referencedAdds =
      refs.length === 0 ? [] : await conversationObject(c.env, conv).proposedAdds(conv, target.subconv, refs));
  const req = {
    ...(await commitRequest(c, bundle, conv, sender, inGroup, referenced)),
    subconv: target.subconv,
    mayRemoveOthers: roleAllows(me.role, 'remove_conversation_member') || (await managesChannel(db, row, me.userId)),
  };
  const allAdds = [...req.adds, ...referencedAdds];
  const addedUsers = [
    ...new Map(allAdds.map((a) => [`${a.domain}/${a.user}`, { id: a.user, domain: a.domain }])).values(),
  ];
  const present = await target.membersAmong(addedUsers);
  const joining = addedUsers.filter((u) => !present.has(`${u.domain}/${u.id}`));
  if (row.team !== null && row.epoch === 0 && target.subconv === undefined)
    await requireAllowedSuite(c, db, row.team, req.suite);
  // Nobody under legal hold starts a group or is added to one.
  const localJoining = joining.filter((u) => u.domain === local).map((u) => u.id);
  await refuseLegalholdInMls(db, [...(remote === undefined && row.epoch === 0 ? [sender.user] : []), ...localJoining]);
  if (target.unstored)
    await storeOne2OneOnFirstCommit(c, { conv: row, members: [me] }, req.adds, {
      id: sender.user,
      domain: sender.domain,
    });
  else if (joining.length > 0 && target.subconv === undefined) {
    // As wire: only the owner's users add users; a remote member's commits add its own clients.
    if (remote !== undefined)
      throw new ApiError(galleyErrors.invalidOp, 'Users of other backends cannot add users here');
    await requireAddMembers(db, row, me);
    const config = c.get('config');
    await checkInvitees(
      deps(c),
      row,
      { id: me.userId, domain: me.userDomain },
      joining,
      config.galley.enableFederation,
    );
    await requireFederating(c, row.protocol, joining);
  }
  // Other backends are told by an effect the object records with the commit's writes: a 1:1 its first
  // commit stores had nobody before, so every other backend in it is new to it.
  const reachesOthers = target.elsewhere || allAdds.some((a) => a.domain !== local);
  const told = {
    conv: row,
    subconv: target.subconv,
    sender: { id: me.userId, domain: me.userDomain },
    bytes: { commit: req.commit, welcome: req.welcome, application: req.application },
  };
  // Only a group reaching other backends reads every member: they are told who was in it.
  const before = reachesOthers && !target.unstored ? await conversationBook.members(c.env, conv) : [];
  const remoteRecord = reachesOthers ? mlsTold(told, before) : undefined;
  const result = await conversationObject(c.env, conv).commitBundle({ ...req, remoteRecord });
  if ('refusal' in result) throw refusalError(result.refusal, result.message);
  if (result.recorded !== undefined) {
    const { id, effectsJson } = result.recorded;
    await settleRecorded(c.env, c.get('config'), id, JSON.parse(effectsJson) as Effect[]);
  }
  const events = JSON.parse(result.eventsJson) as ConversationEvent[];
  return { events, time: result.time, ...failedToSend(await unreachableRecipients(c.env, result.remote ?? [])) };
}
