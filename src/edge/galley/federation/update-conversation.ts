// update-conversation: a member of another backend changes a conversation this backend owns (its
// metadata, a member's role, removing a member), and the caller's side of it: a local member's
// change to a copy goes to the owner, who checks and announces it (the copy follows through
// on-conversation-updated, like every other change).
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError, type ErrorSpec } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { selfQualified } from '../../api/self.js';
import { conversationEvent } from '../../events/conversation-events.js';
import { FederatorClient } from '../../federation/client.js';
import { federationRpc, taggedAnswer } from '../../federation/rpc.js';
import { loadMembershipOf } from '../conversations/access-check.js';
import type { ConversationRow } from '../conversations/conversation-store.js';
import { commitChange } from '../../effects/commit-change.js';
import { actionOfUpdate, updateOfAction } from './conversation-actions.js';
import { errorOfGalleyTag, galleyErrorTag } from './galley-error-tags.js';
import { deps } from '../../api/deps.js';
import { announcementOf, checkUpdate, makeUpdate } from '../conversations/conversation-update.js';
import type { ConversationUpdate } from '../conversations/update-request.js';
import { rpcContract } from '../../federation/contract.js';

const updateRequest = z
  .object({ user: z.uuid(), conv_id: z.uuid(), action: z.object({ tag: z.string(), action: z.unknown() }) })
  .openapi('ConversationUpdateRequest');
const updateResponse = taggedAnswer('ConversationUpdateResponse');

const GALLEY_REFUSALS = new Set<ErrorSpec>(Object.values(galleyErrors));

/** A member of another backend changes a conversation owned here, on the path a local member's change takes. */
const updateConversationRpc = rpcContract({
  component: 'galley',
  rpc: 'update-conversation',
  request: updateRequest,
  response: updateResponse,
});

export const updateConversation = federationRpc(
  { ...updateConversationRpc, description: 'Changed (the update), unchanged, or why not' },
  async (c, r, { origin }) => {
    const d = deps(c);
    const actor = { id: r.user, domain: origin };
    try {
      const update = updateOfAction(r.action);
      if (update === undefined) throw new ApiError(galleyErrors.invalidOp);
      const v = await loadMembershipOf(d, { id: r.conv_id, domain: d.domain }, actor);
      // Asked again after a crash, the call finds its change made.
      if ((await checkUpdate(d, v, actor, update)) === 'unchanged')
        return { tag: 'ConversationUpdateResponseNoChanges' };
      const made = await makeUpdate(d, v, actor, update);
      if (made === 'unchanged') return { tag: 'ConversationUpdateResponseNoChanges' };
      await commitChange(d.env, d.config, made.change);
      const update_ = {
        time: made.event.time,
        origUserId: actor,
        convId: r.conv_id,
        alreadyPresentUsers: [],
        action: r.action,
      };
      return { tag: 'ConversationUpdateResponseUpdate', contents: update_ };
    } catch (err) {
      // Refusals of galley's catalogue are answered; a malformed action stays a 400.
      if (!(err instanceof ApiError) || !GALLEY_REFUSALS.has(err.spec)) throw err;
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
  update: ConversationUpdate,
) {
  const me = selfQualified(c);
  const act = actionOfUpdate(update);
  if (act === undefined) throw new ApiError(galleyErrors.invalidOp);
  const answer = await FederatorClient.of(c.get('config')).call(conv.domain, updateConversationRpc, {
    user: me.id,
    conv_id: conv.id,
    action: act,
  });
  if (answer.tag === 'ConversationUpdateResponseNoChanges') return undefined;
  if (answer.tag === 'ConversationUpdateResponseUpdate') {
    const time = (answer.contents as { time?: unknown } | undefined)?.time;
    const { type, data } = announcementOf(update, me, update.kind === 'remove-members' ? update.targets : []);
    return conversationEvent(type, conv, me, data, typeof time === 'string' ? { time } : {});
  }
  const spec = answer.tag === 'ConversationUpdateResponseError' ? errorOfGalleyTag(answer.contents) : undefined;
  throw new ApiError(spec ?? federationErrors.remoteError, spec === undefined ? JSON.stringify(answer) : undefined);
}
