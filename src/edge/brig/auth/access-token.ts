import { z } from '@hono/zod-openapi';
import type { Config } from '../../../shared/config/index.js';
import type { ZauthKeys } from '../../auth/keys.js';
import { newConnectionId, signAccessToken } from '../../auth/tokens.js';

export const accessTokenJson = z
  .object({
    user: z.uuid(),
    access_token: z.string().openapi({ description: 'The opaque access token string' }),
    token_type: z.literal('Bearer'),
    expires_in: z.int().openapi({ description: 'The number of seconds this token is valid' }),
  })
  .openapi('AccessToken');

export type AccessTokenJson = z.infer<typeof accessTokenJson>;

/**
 * A new access token for the user (bound to a client when one is given), as Wire's JSON. It takes
 * a fresh connection id unless it renews a token (`connection`: the old one's, as wire's renewal
 * keeps it), so that a client's websocket and its later requests keep one connection.
 */
export async function issueAccessToken(
  keys: ZauthKeys,
  config: Config,
  user: string,
  client?: string,
  o: { legalhold?: boolean; connection?: string } = {},
): Promise<AccessTokenJson> {
  const lifetime = config.brig.zauth.accessTokenTimeout;
  const expiresAt = Math.floor(Date.now() / 1000) + lifetime;
  const connection = o.connection ?? newConnectionId();
  const token = await signAccessToken(
    keys,
    { user, connection, ...(client ? { client } : {}), ...(o.legalhold ? { legalhold: true } : {}) },
    expiresAt,
  );
  return { user, access_token: token, token_type: 'Bearer', expires_in: lifetime };
}
