// query-group-info: a member of another backend asks the owner for the GroupInfo of a
// conversation's (or subconversation's) group, to join it by external commit; and the caller's side.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { fromBase64, toBase64 } from '../../../shared/base64.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { federationErrors } from '../../api/errors/federation.js';
import type { QualifiedId } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { FederatorClient } from '../../federation/client.js';
import { federationRpc, taggedAnswer } from '../../federation/rpc.js';
import { groupInfoAnswer, groupInfoOf } from '../mls/member-group.js';
import { errorOfGalleyTag, galleyErrorTag } from './galley-error-tags.js';
import { convOrSub, convOrSubOf } from './mls-through-owner.js';
import { deps } from '../../api/deps.js';
import { rpcContract } from '../../federation/contract.js';

const request = z.object({ conv: convOrSub, sender: z.uuid() }).openapi('GetGroupInfoRequest');
const response = taggedAnswer('GetGroupInfoResponse');

/** A member of another backend asks for the GroupInfo of a group owned here. */
const queryGroupInfoRpc = rpcContract({
  component: 'galley',
  rpc: 'query-group-info',
  request: request,
  response: response,
});

export const queryGroupInfo = federationRpc(
  { ...queryGroupInfoRpc, description: 'The GroupInfo, or why not' },
  async (c, r, { origin }) => {
    const conv = { id: r.conv.value.conv_id, domain: deps(c).domain };
    try {
      const bytes = await groupInfoOf(c, conv, r.conv.value.subconv_id, { id: r.sender, domain: origin });
      return { tag: 'GetGroupInfoResponseState', contents: toBase64(bytes) };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return { tag: 'GetGroupInfoResponseError', contents: galleyErrorTag(err.spec) };
    }
  },
);

/** The GroupInfo of a group another backend owns, asked of its owner for the caller. */
async function groupInfoThroughOwner(c: Context<AppEnv>, conv: QualifiedId, subconv?: string) {
  const asked = { conv: convOrSubOf(conv.id, subconv), sender: selfQualified(c).id };
  const answer = await FederatorClient.of(c.get('config')).call(conv.domain, queryGroupInfoRpc, asked);
  const bytes = answer.tag === 'GetGroupInfoResponseState' ? fromBase64(String(answer.contents)) : undefined;
  if (bytes !== undefined) return bytes;
  const spec = answer.tag === 'GetGroupInfoResponseError' ? errorOfGalleyTag(answer.contents) : undefined;
  throw new ApiError(spec ?? federationErrors.remoteError, spec === undefined ? JSON.stringify(answer) : undefined);
}

/** The GroupInfo of a conversation's (or subconversation's) group for the caller, as the client API answers it. */
export async function groupInfoFor(c: Context<AppEnv>, conv: QualifiedId, subconv?: string): Promise<Response> {
  if (conv.domain !== deps(c).domain) return groupInfoAnswer(await groupInfoThroughOwner(c, conv, subconv));
  return groupInfoAnswer(await groupInfoOf(c, conv, subconv, selfQualified(c)));
}
