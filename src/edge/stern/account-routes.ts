import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { endpoint, type Endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { sternErrors } from '../api/errors/stern.js';
import { accountByEmail, type Intra, passOn } from './intra.js';

// The back office's account routes (wire's stern): deletion, connections, what an account holds.

const userId = z.object({ uid: z.uuid() });
const CONNECTION_STATUSES = ['accepted', 'sent', 'pending', 'blocked', 'ignored', 'missing-legalhold-consent'];

interface ConnectionsPage {
  connections: Array<{ status: string }>;
  has_more: boolean;
  paging_state: string;
}

/** Every connection of the user, page by page, as the user sees them. */
async function allConnections(c: Context<AppEnv>, intra: Intra, user: string) {
  const all: ConnectionsPage['connections'] = [];
  let paging_state: string | undefined;
  for (;;) {
    const res = await intra.asUser(c, user, 'POST', '/list-connections', { size: 500, paging_state });
    const page = (await res.json()) as ConnectionsPage;
    all.push(...page.connections);
    if (!page.has_more) return all;
    paging_state = page.paging_state;
  }
}

/** The user's answer to a public GET, as JSON (null when it refused). */
async function seenBy(c: Context<AppEnv>, intra: Intra, user: string, method: string, path: string, body?: unknown) {
  const res = await intra.asUser(c, user, method, path, body);
  return res.ok ? ((await res.json()) as unknown) : null;
}

export function sternAccountEndpoints(intra: Intra): Endpoint[] {
  /** `DELETE /users/{uid}?email=`: the email must be the account's, a check against the wrong uid. */
  const remove = endpoint(
    {
      name: 'stern-delete-user',
      auth: 'none',
      method: 'delete',
      path: '/users/{uid}',
      request: { params: userId, query: z.object({ email: z.string().min(1) }) },
      errors: [sternErrors.noUserWithEmail, sternErrors.emailMismatch],
      responses: { 202: { description: 'Account deleted' } },
    },
    async (c) => {
      const { uid } = c.req.valid('param');
      const account = await accountByEmail(c, intra, c.req.valid('query').email);
      if (account === undefined) throw new ApiError(sternErrors.noUserWithEmail);
      if (account.id !== uid) throw new ApiError(sternErrors.emailMismatch);
      return passOn(await intra.internal(c, 'DELETE', `/i/users/${uid}`));
    },
  );

  /** `GET /users/{uid}/connections`: how many connections the user has, by status (wire's counts). */
  const connections = endpoint(
    {
      name: 'stern-get-user-connections',
      auth: 'none',
      method: 'get',
      path: '/users/{uid}/connections',
      request: { params: userId },
      responses: { 200: { description: "Counts of the user's connections by status" } },
    },
    async (c) => {
      const all = await allConnections(c, intra, c.req.valid('param').uid);
      const count = (s: string) => all.filter((x) => x.status === s).length;
      const [accepted, sent, pending, blocked, ignored, lh] = CONNECTION_STATUSES.map(count);
      return c.json(
        {
          ucgAccepted: accepted,
          ucgSent: sent,
          ucgPending: pending,
          ucgBlocked: blocked,
          ucgIgnored: ignored,
          ucgMissingLegalholdConsent: lh,
          ucgTotal: all.length,
        },
        200,
      );
    },
  );

  /**
   * `GET /users/{uid}/meta-info`: what the account holds, as the user sees it: the account, its
   * cookies, connections, conversations, clients, notifications and properties (wire's
   * `/i/user/meta-info`, which the internal API's `/i` would hide here).
   */
  const metaInfo = endpoint(
    {
      name: 'stern-get-user-meta-info',
      auth: 'none',
      method: 'get',
      path: '/users/{uid}/meta-info',
      request: {
        params: userId,
        query: z.object({
          max_conversations: z.coerce.number().int().min(1).max(1000).default(1),
          max_notifications: z.coerce.number().int().min(1).max(10000).default(100),
        }),
      },
      responses: { 200: { description: "The account's data" } },
    },
    async (c) => {
      const { uid } = c.req.valid('param');
      const q = c.req.valid('query');
      const [account] = (await (await intra.internal(c, 'GET', `/i/users?ids=${uid}`)).json()) as unknown[];
      if (account === undefined) return c.json({ account: null }, 200);
      const ids = (await seenBy(c, intra, uid, 'POST', '/conversations/list-ids', { size: q.max_conversations })) as {
        qualified_conversations: unknown[];
      } | null;
      return c.json(
        {
          account,
          cookies: await seenBy(c, intra, uid, 'GET', '/cookies'),
          connections: await allConnections(c, intra, uid),
          conversations: await seenBy(c, intra, uid, 'POST', '/conversations/list', {
            qualified_ids: ids?.qualified_conversations ?? [],
          }),
          clients: await seenBy(c, intra, uid, 'GET', '/clients'),
          notifications: await seenBy(c, intra, uid, 'GET', `/notifications?size=${q.max_notifications}`),
          properties: await seenBy(c, intra, uid, 'GET', '/properties-values'),
        },
        200,
      );
    },
  );

  return [remove, connections, metaInfo];
}
