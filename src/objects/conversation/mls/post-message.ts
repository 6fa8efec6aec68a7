import type { ConversationDb } from '../../db/conversation-db.js';
import { toBase64 } from '../../../shared/base64.js';
import type { DeliveryResult, MessageRequest } from '../../../shared/mls/delivery.js';
import type { NotificationShards } from '../../notification-shards.js';
import { mlsGroupMessage, mlsNotifications, remoteDelivery } from './fan-out.js';
import { GroupRoster } from './group-roster.js';
import { indexOf } from './group-index.js';
import type { GroupRow } from './group-row.js';
import { proposalStatement } from './group-store.js';

/** How many epochs back an application message may have been encrypted in (wire-server: 2). */
const EPOCH_WINDOW = 2;

const refuse = (
  refusal: 'mlsStaleMessage' | 'mlsProtocolError' | 'mlsUnsupportedMessage' | 'noConversation',
  message?: string,
) => ({ result: { ok: false as const, refusal, message } });

/**
 * A proposal or application message for the group, checked against its epoch: an application
 * message may be up to two epochs old but never from the future or from epoch 0, and is not for
 * `mixed` conversations; a proposal is of the current epoch and becomes pending, so the next
 * commit must reference it. Either goes to every other client of the group.
 */
export async function postMessage(
  db: ConversationDb,
  shards: NotificationShards,
  group: GroupRow,
  req: MessageRequest,
): Promise<{ result: DeliveryResult; group?: GroupRow }> {
  // Membership first: a non-member learns nothing about the conversation's group.
  if (!group.members.has(`${req.sender.domain}/${req.sender.user}`)) return refuse('noConversation');
  if (group.groupId !== req.groupId)
    return refuse('mlsProtocolError', 'The message group ID does not match the conversation');
  if (group.epoch === 0) {
    const what = req.proposal === undefined ? 'Application messages' : 'Bare proposals';
    return refuse('mlsProtocolError', `${what} at epoch 0 are not supported`);
  }
  let next: GroupRow | undefined;
  if (req.proposal === undefined) {
    if (group.protocol === 'mixed')
      return refuse('mlsUnsupportedMessage', 'Application messages in mixed conversations');
    if (req.epoch > group.epoch || req.epoch < group.epoch - EPOCH_WINDOW) return refuse('mlsStaleMessage');
  } else {
    if (req.epoch !== group.epoch) return refuse('mlsStaleMessage');
    const pending = {
      ref: req.proposal.ref,
      origin: 'client' as const,
      effect: req.proposal.effect,
      message: toBase64(req.message),
    };
    proposalStatement(db, req.groupId, group.epoch, pending).run();
    next = { ...group, proposals: new Map([...group.proposals, [pending.ref, pending]]) };
  }
  const time = new Date().toISOString();
  const fan = { conv: req.conv, subconv: req.subconv, sender: req.sender, localDomain: req.localDomain, time };
  const skip = new Set((req.skipUsers ?? []).map((u) => `${u.domain}/${u.user}`));
  // Every client, for explicit deliveries and other backends; the group's own are reached through the rosters.
  const listed = skip.size > 0 || indexOf(group, req.localDomain).remote > 0;
  const to = listed ? [...group.leaves.values()].filter((l) => !skip.has(`${l.domain}/${l.user}`)) : [];
  if (skip.size > 0)
    await shards.append(mlsNotifications('conversation.mls-message-add', req.message, to, fan), req.ttlSeconds);
  else {
    const roster = new GroupRoster(db, shards, group, req.localDomain);
    const send = await roster.send(mlsGroupMessage(req.message, fan), req.sender);
    const { writes } = roster;
    // A message that seeds the rosters goes through the outbox, with the record that they are kept.
    const keep =
      writes.length === 0
        ? undefined
        : () => {
            for (const w of writes) w.run();
          };
    await shards.appendWith([send], req.ttlSeconds, undefined, keep);
  }
  const remote = remoteDelivery('message', to, fan);
  return { result: { ok: true, eventsJson: '[]', time, remote }, ...(next === undefined ? {} : { group: next }) };
}
