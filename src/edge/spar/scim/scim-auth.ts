import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { database } from '../../db/client.js';
import { scimErrors } from './scim-error.js';
import { scimTokenStore, type ScimTokenRow } from './scim-token-store.js';
import { scimSecretHash } from './token-secret.js';

/** The token a SCIM request presents as `Authorization: Bearer …` (401 without a known one). */
export async function scimToken(c: Context<AppEnv>): Promise<ScimTokenRow> {
  const header = c.req.header('authorization');
  const secret = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
  if (secret === undefined || secret === '') throw scimErrors.unauthorized('Token not provided');
  const token = await scimTokenStore.byHash(database(c.env.DB), await scimSecretHash(secret));
  if (token === undefined) throw scimErrors.unauthorized('Invalid token');
  return token;
}
