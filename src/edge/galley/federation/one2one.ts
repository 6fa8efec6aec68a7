// get-one2one-conversation: the MLS 1:1 of two users of different backends lives on the backend
// its id picks; the other backend asks it for the conversation and the removal keys its group
// must name (the owner signs the removals). The owner's side and the caller's.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ApiVersion } from '../../../shared/api-version.js';
import { fromBase64 } from '../../../shared/base64.js';
import { publicKeyOfRaw } from '../../../shared/mls/removal-keys.js';
import { SIGNATURE_SCHEMES } from '../../../shared/mls/suites.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { FederatorClient } from '../../federation/client.js';
import { federationRpc, taggedAnswer } from '../../federation/rpc.js';
import { conversationBook } from '../conversations/conversation-book.js';
import { memberRow } from '../conversations/member-data.js';
import { MLS_ONE2ONE_NAMESPACE, one2OneConvId } from '../conversations/one2one-id.js';
import { ROLE_MEMBER } from '../conversations/roles.js';
import { mlsPrivateConversationRow } from '../mls/mls-conversation-row.js';
import { requireMls } from '../mls/mls-enabled.js';
import { type PublicKeys, publicKeysJson } from '../mls/public-keys.js';
import { remoteConversation, remoteConversationJson, remoteConversationView } from './get-conversations.js';
import { deps } from '../../api/deps.js';
import { rpcContract } from '../../federation/contract.js';

const request = z
  .object({ gooc_sender_user: z.uuid(), gooc_receiver_user: z.uuid() })
  .openapi('GetOne2OneConversationRequest');
const response = taggedAnswer('GetOne2OneConversationResponseV2');
const ok = z.object({
  conversation: remoteConversation,
  public_keys: z.object({ removal: z.record(z.string(), z.string()) }),
});

/** A user of another backend asks for its MLS 1:1 with a user of this one, which this backend owns. */
const getOne2oneConversationRpc = rpcContract({
  component: 'galley',
  rpc: 'get-one2one-conversation',
  request: request,
  response: response,
});

export const getOne2OneConversation = federationRpc(
  { ...getOne2oneConversationRpc, description: 'The 1:1, or why not' },
  async (c, r, { origin }) => {
    if (!c.get('config').brig.optSettings.setEnableMLS) return { tag: 'GetOne2OneConversationV2MLSNotEnabled' };
    const keys = requireMls(c);
    const sender = { id: r.gooc_sender_user, domain: origin };
    const receiver = { id: r.gooc_receiver_user, domain: deps(c).domain };
    const id = await one2OneConvId(MLS_ONE2ONE_NAMESPACE, sender, receiver);
    if (id.domain !== receiver.domain) return { tag: 'GetOne2OneConversationV2BackendMismatch' };
    if (!(await deps(c).users.areConnected(receiver, sender))) return { tag: 'GetOne2OneConversationV2NotConnected' };
    const stored = await conversationBook.get(c.env, id);
    const members = stored === undefined ? [] : await conversationBook.members(c.env, id);
    const me =
      members.find((m) => m.userId === sender.id && m.userDomain === sender.domain) ??
      memberRow(id, sender, ROLE_MEMBER);
    const conversation = remoteConversationJson(stored ?? mlsPrivateConversationRow(id, null, 2), members, me);
    return {
      tag: 'GetOne2OneConversationV2Ok',
      contents: { conversation, public_keys: publicKeysJson(keys, 'raw') },
    };
  },
);

/** The owner's removal keys, read from its raw ones. */
function keysOf(raw: Record<string, string>): PublicKeys {
  const keys: Partial<PublicKeys> = {};
  for (const scheme of SIGNATURE_SCHEMES) {
    const key = publicKeyOfRaw(scheme, fromBase64(raw[scheme] ?? '') ?? new Uint8Array());
    if (key === undefined) throw new ApiError(federationErrors.invalidBody, `no ${scheme} removal key`);
    keys[scheme] = key;
  }
  return keys as PublicKeys;
}

const REFUSALS: Record<string, ApiError['spec']> = {
  GetOne2OneConversationV2NotConnected: galleyErrors.notConnected,
  GetOne2OneConversationV2MLSNotEnabled: mlsErrors.mlsFederatedOne2OneNotSupported,
};

/** The caller's MLS 1:1 with `other`, which `id` says the other user's backend owns: asked of it. */
export async function one2OneOfOwner(c: Context<AppEnv>, other: QualifiedId, v: ApiVersion) {
  const asked = { gooc_sender_user: selfQualified(c).id, gooc_receiver_user: other.id };
  const answer = await FederatorClient.of(c.get('config')).call(other.domain, getOne2oneConversationRpc, asked);
  const read = answer.tag === 'GetOne2OneConversationV2Ok' ? ok.safeParse(answer.contents) : undefined;
  if (read?.success) {
    const me = selfQualified(c);
    const rc = read.data.conversation;
    const kept = await conversationBook.member(c.env, { id: rc.id, domain: other.domain }, me);
    const conversation = remoteConversationView(me, other.domain, rc, kept, v);
    return { keys: keysOf(read.data.public_keys.removal), conversation };
  }
  const spec = REFUSALS[answer.tag] ?? federationErrors.remoteError;
  throw new ApiError(spec, spec === federationErrors.remoteError ? JSON.stringify(answer) : undefined);
}
