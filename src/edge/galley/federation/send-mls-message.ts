// send-mls-message and send-mls-commit-bundle, the owner's side: a client of another backend posts
// a message or a commit bundle to a group owned here; refusals are answered as wire's
// MLSMessageResponse variants (the caller's side: mls-through-owner.ts).
import type { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { fromBase64 } from '../../../shared/base64.js';
import { splitCommitBundle } from '../../../shared/mls/bundle.js';
import type { MlsSender } from '../../../shared/mls/delivery.js';
import { classifyPostedMessage } from '../../../shared/mls/messages.js';
import type { AppEnv } from '../../api/app-env.js';
import { federationRpc, type RpcCaller } from '../../federation/rpc.js';
import { acceptCommitBundle } from '../mls/commit-bundles.js';
import { type GroupTarget, groupTarget } from '../mls/group-conversation.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { deliverMlsMessage, groupIdOf } from '../mls/messages.js';
import { parsed } from '../mls/mls-failure.js';
import {
  refusalAnswer,
  type sendRequest,
  type sendResponse,
  updatesAnswer,
  sendMlsCommitBundleRpc,
  sendMlsMessageRpc,
} from './mls-through-owner.js';

type Request = z.output<typeof sendRequest>;
/** What a handler is given: the sender, the message's bytes, and the group a group id names. */
type Handler = (
  c: Context<AppEnv>,
  sender: MlsSender,
  bytes: Uint8Array,
  groupOf: (groupId: Uint8Array) => GroupTarget,
) => Promise<z.input<typeof sendResponse>>;

/**
 * An RPC taking a remote client's MLS message for a group owned here. The group id says which
 * group it is (and what kind of conversation: a 1:1's messages are checked for blocks, its first
 * commit stores it); it must be the one the request names.
 */
const mlsRpc = (contract: typeof sendMlsMessageRpc, description: string, handle: Handler) =>
  federationRpc({ ...contract, description }, async (c, r: Request, { origin }: RpcCaller) => {
    const sender = { user: r.sender, domain: origin, client: r.sender_client, connection: '' };
    const { value } = r.conv_or_sub_id;
    const groupOf = (groupId: Uint8Array) => {
      const named = groupTarget(c, groupId);
      if (named.id.id !== value.conv_id || named.subconv !== value.subconv_id)
        throw new ApiError(mlsErrors.mlsProtocolError, 'The message is for another group');
      return named;
    };
    try {
      return await handle(c, sender, fromBase64(r.raw_message)!, groupOf);
    } catch (err) {
      return refusalAnswer(err);
    }
  });

/** A client of another backend posts a proposal or an application message to a group owned here. */
export const sendMlsMessage = mlsRpc(sendMlsMessageRpc, 'Sent, or why not', async (c, sender, bytes, groupOf) => {
  const posted = await parsed(async () => classifyPostedMessage(bytes));
  const target = groupOf(groupIdOf(posted));
  await deliverMlsMessage(c, sender, posted, target);
  return updatesAnswer(target.id.id, []);
});

/** A client of another backend commits to a group owned here. */
export const sendMlsCommitBundle = mlsRpc(
  sendMlsCommitBundleRpc,
  'Applied (the changes it made), or why not',
  async (c, sender, bytes, groupOf) => {
    const bundle = await parsed(() => splitCommitBundle(bytes));
    const target = groupOf(bundle.commit.content.groupId);
    const { events } = await acceptCommitBundle(c, sender, bundle, target);
    return updatesAnswer(target.id.id, events);
  },
);
