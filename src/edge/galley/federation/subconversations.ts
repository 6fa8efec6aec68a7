// get-, delete- and leave-sub-conversation: a member of another backend reads, resets or leaves a
// subconversation (a conference call's group) of a conversation owned here; and the caller's side,
// for the client routes when the conversation is another backend's.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { mlsErrors } from '../../api/errors/mls.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { FederatorClient } from '../../federation/client.js';
import { federationRpc, taggedAnswer } from '../../federation/rpc.js';
import {
  leaveSubconversationAs,
  publicSubconversation,
  publicSubconversationSchema,
  resetSubconversation,
} from '../mls/subconversation-actions.js';
import { errorOfGalleyTag, galleyErrorTag } from './galley-error-tags.js';
import { deps } from '../../api/deps.js';
import { rpcContract } from '../../federation/contract.js';

const getRequest = z
  .object({ gsreq_user: z.uuid(), gsreq_conv: z.uuid(), gsreq_sub_conv: z.string() })
  .openapi('GetSubConversationsRequest');
const getResponse = taggedAnswer('GetSubConversationsResponse');
const deleteRequest = z
  .object({
    dscreq_user: z.uuid(),
    dscreq_conv: z.uuid(),
    dscreq_sub_conv: z.string(),
    dscreq_group_id: z.string(),
    dscreq_epoch: z.int().min(0),
  })
  .openapi('DeleteSubConversationFedRequest');
const deleteResponse = taggedAnswer('DeleteSubConversationResponse');
const leaveRequest = z
  .object({ lscr_user: z.uuid(), lscr_client: z.string(), lscr_conv: z.uuid(), lscr_sub_conv: z.string() })
  .openapi('LeaveSubConversationRequest');
const leaveResponse = taggedAnswer('LeaveSubConversationResponse');

/** The answer of `work`, or its refusal as `{tag: errorTag, contents: GalleyError}`. */
async function orRefusal<T>(errorTag: string, work: () => Promise<T>): Promise<T | { tag: string; contents: string }> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { tag: errorTag, contents: galleyErrorTag(err.spec) };
  }
}

const ownConv = (c: Context<AppEnv>, id: string) => ({
  id,
  domain: deps(c).domain,
});

const getSubConversationRpc = rpcContract({
  component: 'galley',
  rpc: 'get-sub-conversation',
  request: getRequest,
  response: getResponse,
});

export const getSubConversationForRemote = federationRpc(
  { ...getSubConversationRpc, description: 'The subconversation, or why not' },
  (c, r, { origin }) =>
    orRefusal('GetSubConversationsResponseError', async () => ({
      tag: 'GetSubConversationsResponseSuccess',
      contents: await publicSubconversation(c, ownConv(c, r.gsreq_conv), r.gsreq_sub_conv, {
        id: r.gsreq_user,
        domain: origin,
      }),
    })),
);

const deleteSubConversationRpc = rpcContract({
  component: 'galley',
  rpc: 'delete-sub-conversation',
  request: deleteRequest,
  response: deleteResponse,
});

export const deleteSubConversationForRemote = federationRpc(
  { ...deleteSubConversationRpc, description: 'Reset, or why not' },
  (c, r, { origin }) =>
    orRefusal('DeleteSubConversationResponseError', async () => {
      const current = { groupId: r.dscreq_group_id, epoch: r.dscreq_epoch };
      await resetSubconversation(
        c,
        ownConv(c, r.dscreq_conv),
        r.dscreq_sub_conv,
        { id: r.dscreq_user, domain: origin },
        current,
      );
      return { tag: 'DeleteSubConversationResponseSuccess' };
    }),
);

const leaveSubConversationRpc = rpcContract({
  component: 'galley',
  rpc: 'leave-sub-conversation',
  request: leaveRequest,
  response: leaveResponse,
});

export const leaveSubConversationForRemote = federationRpc(
  { ...leaveSubConversationRpc, description: 'Left, or why not' },
  async (c, r, { origin }) => {
    const who = { id: r.lscr_user, domain: origin, client: r.lscr_client };
    try {
      await leaveSubconversationAs(c, ownConv(c, r.lscr_conv), r.lscr_sub_conv, who);
      return { tag: 'LeaveSubConversationResponseOk' };
    } catch (err) {
      if (err instanceof ApiError && err.spec === mlsErrors.mlsProtocolError)
        return { tag: 'LeaveSubConversationResponseProtocolError', contents: err.message };
      if (!(err instanceof ApiError)) throw err;
      return { tag: 'LeaveSubConversationResponseError', contents: galleyErrorTag(err.spec) };
    }
  },
);

/** The owner's refusal as this backend's error. */
function refused(answer: { tag: string; contents?: unknown }): never {
  if (answer.tag.endsWith('ProtocolError'))
    throw new ApiError(mlsErrors.mlsProtocolError, String(answer.contents ?? ''));
  const spec = answer.tag.endsWith('Error') ? errorOfGalleyTag(answer.contents) : undefined;
  throw new ApiError(spec ?? federationErrors.remoteError, spec === undefined ? JSON.stringify(answer) : undefined);
}

const owner = (c: Context<AppEnv>) => FederatorClient.of(c.get('config'));

/** A subconversation of another backend's conversation, as its owner shows it to the caller. */
export async function subconversationThroughOwner(c: Context<AppEnv>, conv: QualifiedId, subconv: string) {
  const asked = { gsreq_user: self(c).user, gsreq_conv: conv.id, gsreq_sub_conv: subconv };
  const answer = await owner(c).call(conv.domain, getSubConversationRpc, asked);
  if (answer.tag !== 'GetSubConversationsResponseSuccess') return refused(answer);
  const read = publicSubconversationSchema.safeParse(answer.contents);
  if (!read.success) throw new ApiError(federationErrors.invalidBody, 'not a PublicSubConversation');
  return read.data;
}

/** Resets a subconversation of another backend's conversation through its owner. */
export async function resetThroughOwner(
  c: Context<AppEnv>,
  conv: QualifiedId,
  subconv: string,
  current: { group_id: string; epoch: number },
) {
  const asked = {
    dscreq_user: self(c).user,
    dscreq_conv: conv.id,
    dscreq_sub_conv: subconv,
    dscreq_group_id: current.group_id,
    dscreq_epoch: current.epoch,
  };
  const answer = await owner(c).call(conv.domain, deleteSubConversationRpc, asked);
  if (answer.tag !== 'DeleteSubConversationResponseSuccess') refused(answer);
}

/** The caller's client leaves a subconversation of another backend's conversation through its owner. */
export async function leaveThroughOwner(c: Context<AppEnv>, conv: QualifiedId, subconv: string, client: string) {
  const asked = { lscr_user: self(c).user, lscr_client: client, lscr_conv: conv.id, lscr_sub_conv: subconv };
  const answer = await owner(c).call(conv.domain, leaveSubConversationRpc, asked);
  if (answer.tag !== 'LeaveSubConversationResponseOk') refused(answer);
}
