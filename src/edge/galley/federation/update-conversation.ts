// update-conversation: a member of another backend changes a conversation this backend owns (its
// metadata, a member's role, removing a member), and the caller's side of it: a local member's
// change to a copy goes to the owner, who checks and announces it (the copy follows through
// on-conversation-updated, like every other change).
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { EventQid } from '../../../shared/events/conversation-event.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError, type ErrorSpec } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { selfQualified } from '../../api/self.js';
import { database } from '../../db/client.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { FederatorClient } from '../../federation/client.js';
import { federationRpc, taggedAnswer } from '../../federation/rpc.js';
import { loadMembershipOf, type Membership } from '../conversations/access-check.js';
import { conversationStore, type ConversationRow } from '../conversations/conversation-store.js';
import { tellMembersEffect } from '../conversations/notify.js';
import { kickDisallowedMembers } from '../conversations/access-effects.js';
import { type Change, commitChange, joinChanges } from '../../effects/commit-change.js';
import { type ConversationAction as RoleAction, ROLE_ADMIN, ROLE_MEMBER, roleAllows } from '../conversations/roles.js';
import { membershipChangedEffect } from '../messaging/conversation-object.js';
import { type ConversationAction, effectOfAction, type LocalEffect, patchMade } from './conversation-actions.js';
import { errorOfGalleyTag, galleyErrorTag } from './galley-error-tags.js';

const updateRequest = z
  .object({ user: z.uuid(), conv_id: z.uuid(), action: z.object({ tag: z.string(), action: z.unknown() }) })
  .openapi('ConversationUpdateRequest');
const updateResponse = taggedAnswer('ConversationUpdateResponse');

/** The role action each metadata change needs, and whether only group conversations have it. */
const METADATA: Record<string, { action: RoleAction; groupOnly: boolean }> = {
  ConversationRenameTag: { action: 'modify_conversation_name', groupOnly: false },
  ConversationMessageTimerUpdateTag: { action: 'modify_conversation_message_timer', groupOnly: true },
  ConversationReceiptModeUpdateTag: { action: 'modify_conversation_receipt_mode', groupOnly: true },
  ConversationAccessDataTag: { action: 'modify_conversation_access', groupOnly: true },
};

class Refused extends Error {
  constructor(readonly spec: ErrorSpec) {
    super(spec.label);
  }
}

const same = (m: { userId: string; userDomain: string }, u: EventQid) => m.userId === u.id && m.userDomain === u.domain;

/**
 * The action as `actor`: the event everybody hears and the change, or undefined when nothing
 * changes (so a call asked again after a crash finds its change made, as wire answers NoChanges).
 */
async function apply(c: Context<AppEnv>, m: Membership, tag: string, effect: LocalEffect, actor: EventQid) {
  const db = database(c.env.DB);
  const { conv, me } = m;
  const allow = (action: RoleAction) => {
    if (!roleAllows(me.role, action)) throw new Refused(galleyErrors.actionDenied);
  };
  const event = conversationEvent(effect.type, conv, actor, effect.data, { team: conv.team });
  const told = (change: Change) => ({
    event,
    change: joinChanges(change, { statements: [], effects: [tellMembersEffect(conv, m.members, event)] }),
  });
  if (effect.kind === 'patch' && METADATA[tag] !== undefined) {
    allow(METADATA[tag].action);
    if (METADATA[tag].groupOnly && conv.type !== 0) throw new Refused(galleyErrors.invalidOp);
    if (patchMade(conv, effect.patch)) return undefined;
    const patch = effect.patch as Partial<ConversationRow>;
    const change = told({ statements: [conversationStore.update(db, conv, patch)], effects: [] });
    // As the client route: members the new access roles no longer admit leave.
    if (tag !== 'ConversationAccessDataTag') return change;
    const kicked = await kickDisallowedMembers(c, { ...conv, ...patch }, m.members, actor);
    return { event, change: joinChanges(change.change, kicked) };
  }
  if (conv.type !== 0) throw new Refused(galleyErrors.invalidOp);
  if (effect.kind === 'leave' && tag === 'ConversationRemoveMembersTag') {
    allow('remove_conversation_member');
    const targets = effect.users.filter((u) => m.members.some((x) => same(x, u)));
    if (targets.some((u) => same(me, u))) throw new Refused(galleyErrors.invalidOp);
    if (targets.length === 0) return undefined;
    return told({
      statements: conversationStore.removeMembers(db, conv, targets),
      effects: [membershipChangedEffect(conv, targets)],
    });
  }
  if (effect.kind === 'member-role') {
    allow('modify_other_conversation_member');
    if (same(me, effect.target) || ![ROLE_ADMIN, ROLE_MEMBER].includes(effect.role))
      throw new Refused(galleyErrors.invalidOp);
    if (!m.members.some((x) => same(x, effect.target))) throw new Refused(galleyErrors.noConversationMember);
    return told({
      statements: [conversationStore.updateMember(db, conv, effect.target, { role: effect.role })],
      effects: [],
    });
  }
  throw new Refused(galleyErrors.invalidOp);
}

/** A member of another backend changes a conversation owned here. */
export const updateConversation = federationRpc(
  {
    component: 'galley',
    rpc: 'update-conversation',
    request: updateRequest,
    response: updateResponse,
    description: 'Changed (the update), unchanged, or why not',
  },
  async (c, r, { origin }) => {
    const actor = { id: r.user, domain: origin };
    const local = c.get('config').brig.optSettings.setFederationDomain;
    try {
      const effect = effectOfAction(r.action, actor);
      if (effect === undefined) throw new Refused(galleyErrors.invalidOp);
      const m = await loadMembershipOf(c, { id: r.conv_id, domain: local }, actor);
      if (m.me === undefined) throw new Refused(galleyErrors.noConversation);
      const applied = await apply(c, m as Membership, r.action.tag, effect, actor);
      if (applied === undefined) return { tag: 'ConversationUpdateResponseNoChanges' };
      await commitChange(c.env, c.get('config'), applied.change);
      const update = {
        time: applied.event.time,
        origUserId: actor,
        convId: r.conv_id,
        alreadyPresentUsers: [],
        action: r.action,
      };
      return { tag: 'ConversationUpdateResponseUpdate', contents: update };
    } catch (err) {
      // Refusals, and the conversation not found (an ApiError of the catalogue).
      if (!(err instanceof Refused) && !(err instanceof ApiError && err.spec === galleyErrors.noConversation))
        throw err;
      return { tag: 'ConversationUpdateResponseError', contents: galleyErrorTag(err.spec) };
    }
  },
);

/**
 * A local member's change to a conversation another backend owns, made by its owner: the event
 * the caller gets (with the owner's time), or undefined when the owner found nothing to change.
 */
export async function updateThroughOwner(
  c: Context<AppEnv>,
  conv: Pick<ConversationRow, 'domain' | 'id'>,
  act: ConversationAction,
  event: { type: string; data: unknown },
) {
  const me = selfQualified(c);
  const answer = await FederatorClient.of(c.get('config')).call(
    conv.domain,
    'galley',
    'update-conversation',
    { user: me.id, conv_id: conv.id, action: act },
    updateResponse,
  );
  if (answer.tag === 'ConversationUpdateResponseNoChanges') return undefined;
  if (answer.tag === 'ConversationUpdateResponseUpdate') {
    const time = (answer.contents as { time?: unknown } | undefined)?.time;
    return conversationEvent(event.type, conv, me, event.data, typeof time === 'string' ? { time } : {});
  }
  const spec = answer.tag === 'ConversationUpdateResponseError' ? errorOfGalleyTag(answer.contents) : undefined;
  throw new ApiError(spec ?? federationErrors.remoteError, spec === undefined ? JSON.stringify(answer) : undefined);
}
