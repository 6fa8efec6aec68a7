import { z } from '@hono/zod-openapi';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import { TRANSPORTS, type PushAddress, type PushToken } from '../../../shared/notifications/native-push.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { gundeckErrors } from '../../api/errors/gundeck.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { userStream } from '../../events/publish.js';
import { release } from './addresses.js';
import { pushGatewayOf } from './configured-gateway.js';

const pushToken = z
  .object({
    transport: z.enum(TRANSPORTS),
    app: z.string().min(1),
    token: z.string().min(1),
    client: z.string().regex(CLIENT_ID_PATTERN),
  })
  .openapi('PushToken');

const pushTokenList = z.object({ tokens: z.array(pushToken) }).openapi('PushTokenList');

/** The push services' limits on a device token's length. */
const tooLong = (t: PushToken) => t.token.length >= (t.transport === 'GCM' ? 8192 : 400);

const asToken = ({ transport, app, token, client }: PushAddress): PushToken => ({ transport, app, token, client });

export const registerPushToken = endpoint(
  {
    name: 'register-push-token',
    method: 'post',
    path: '/push/tokens',
    request: { body: { required: true, ...json(pushToken) } },
    errors: [
      gundeckErrors.apnsVoipNotSupported,
      gundeckErrors.appNotFound,
      gundeckErrors.invalidPushToken,
      gundeckErrors.tokenTooLong,
      gundeckErrors.metadataTooLong,
      gundeckErrors.pushGatewayInconsistent,
    ],
    responses: {
      201: {
        description: 'Push token registered',
        headers: z.object({ Location: z.string() }),
        ...json(pushToken),
      },
    },
  },
  async (c) => {
    const token = c.req.valid('json');
    const me = self(c);
    if (token.transport === 'APNS_VOIP' || token.transport === 'APNS_VOIP_SANDBOX')
      throw new ApiError(gundeckErrors.apnsVoipNotSupported);
    const gateway = pushGatewayOf(c.env, c.get('config'));
    if (gateway === undefined) throw new ApiError(gundeckErrors.appNotFound);
    if (tooLong(token)) throw new ApiError(gundeckErrors.tokenTooLong);
    const endpoint = await gateway.register(me.user, token);
    const replaced = await userStream(c.env, me.user).addPushToken({ ...token, endpoint, connection: me.connection });
    await release(c.env, c.get('config'), me.user, replaced);
    c.header('Location', token.token);
    return c.json(token, 201);
  },
);

export const getPushTokens = endpoint(
  {
    name: 'get-push-tokens',
    method: 'get',
    path: '/push/tokens',
    responses: { 200: { description: "The user's registered push tokens", ...json(pushTokenList) } },
  },
  async (c) => {
    const addresses = await userStream(c.env, self(c).user).pushTokens();
    return c.json({ tokens: addresses.map(asToken) }, 200);
  },
);

export const deletePushToken = endpoint(
  {
    name: 'delete-push-token',
    method: 'delete',
    path: '/push/tokens/{pid}',
    request: { params: z.object({ pid: z.string() }) },
    errors: [gundeckErrors.pushTokenNotFound],
    responses: { 204: { description: 'Push token unregistered' } },
  },
  async (c) => {
    const me = self(c).user;
    const gone = await userStream(c.env, me).removePushToken(c.req.valid('param').pid);
    if (gone.length === 0) throw new ApiError(gundeckErrors.pushTokenNotFound);
    await release(c.env, c.get('config'), me, gone);
    return c.body(null, 204);
  },
);

/** `GET /i/push-tokens/{uid}`: a user's tokens, for operators. */
export const getUserPushTokens = endpoint(
  {
    name: 'get-push-tokens-internal',
    method: 'get',
    path: '/i/push-tokens/{uid}',
    request: { params: z.object({ uid: z.uuid() }) },
    responses: { 200: { description: "The user's registered push tokens", ...json(pushTokenList) } },
  },
  async (c) => {
    const addresses = await userStream(c.env, c.req.valid('param').uid).pushTokens();
    return c.json({ tokens: addresses.map(asToken) }, 200);
  },
);
