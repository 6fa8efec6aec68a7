import type { Config } from '../../../shared/config/index.js';
import { database } from '../../db/client.js';
import { outboxStore } from './outbox-store.js';
import { basicCredentials } from '../../api/basic-auth.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { errorResponse } from '../../api/errors/render.js';

export const MAILBOX_PATH = '/mailbox';

const authorized = (req: Request, creds: { username: string; password: string }) =>
  basicCredentials(req) === `${creds.username}:${creds.password}`;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/**
 * The fake mail ingress: `GET /mailbox?to=<email>[&after=<id>]` lists the outbox's mails to an
 * address, newest first, behind basic auth. Served only when the outbox sender has credentials.
 */
export async function serveMailbox(req: Request, url: URL, env: Env, config: Config): Promise<Response | undefined> {
  const delivery = config.brig.emailSMS.delivery;
  if (delivery.type !== 'outbox' || delivery.mailbox === undefined) return undefined;
  if (!authorized(req, delivery.mailbox))
    return errorResponse(new ApiError(commonErrors.basicAuthRequired), { 'www-authenticate': 'Basic realm="mailbox"' });
  if (req.method !== 'GET')
    return json(405, { code: 405, label: 'method-not-allowed', message: 'The mailbox is read-only' });
  const to = url.searchParams.get('to');
  const after = Number(url.searchParams.get('after') ?? 0);
  if (to === null || to === '' || !Number.isSafeInteger(after))
    return json(400, {
      code: 400,
      label: 'bad-request',
      message: 'Query parameter `to` (an email address) is required',
    });
  return json(200, { messages: await outboxStore.list(database(env.DB), to, after) });
}
