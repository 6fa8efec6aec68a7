// send-mls-message, the owner's side: a client of another backend posts a message to a group
// owned here; refusals are answered as wire's MLSMessageResponse variants.
import { fromBase64 } from '../../../shared/base64.js';
import { ConvType } from '../../../shared/mls/group-id.js';
import { classifyPostedMessage } from '../../../shared/mls/messages.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';
import { federationRpc } from '../../federation/rpc.js';
import type { GroupTarget } from '../mls/group-conversation.js';
import { deliverMlsMessage } from '../mls/messages.js';
import { parsed } from '../mls/mls-failure.js';
import { galleyErrorTag } from './galley-error-tags.js';
import { sendRequest, sendResponse } from './mls-through-owner.js';

/** A client of another backend posts a message to a group owned here. */
export const sendMlsMessage = federationRpc(
  {
    component: 'galley',
    rpc: 'send-mls-message',
    request: sendRequest,
    response: sendResponse,
    description: 'Sent, or why not',
  },
  async (c, r, { origin }) => {
    const sender = { user: r.sender, domain: origin, client: r.sender_client, connection: '' };
    try {
      const posted = await parsed(async () => classifyPostedMessage(fromBase64(r.raw_message)!));
      const { tag, value } = r.conv_or_sub_id;
      const local = c.get('config').brig.optSettings.setFederationDomain;
      const target: GroupTarget = {
        id: { id: value.conv_id, domain: local },
        subconv: tag === 'subconv' ? value.subconv_id : undefined,
        convType: ConvType.regular,
      };
      await deliverMlsMessage(c, sender, posted, target);
      return { tag: 'MLSMessageResponseUpdates', contents: [] };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.spec.label === mlsErrors.mlsProtocolError.label)
        return { tag: 'MLSMessageResponseProtocolError', contents: err.message };
      return { tag: 'MLSMessageResponseError', contents: galleyErrorTag(err.spec) };
    }
  },
);
