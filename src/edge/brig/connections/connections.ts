import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { decodePagingState, encodePagingState, isStringPair } from '../../api/paging-state.js';
import { ApiError, type ErrorSpec } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { FEDERATED_CALL_ERRORS } from '../../api/errors/federation.js';
import { json, jsonBody, type QualifiedId } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { type Change, commitChange, joinChanges, noChange } from '../../effects/commit-change.js';
import type { Relation } from '../../../shared/db/schema.js';
import { connectionEvent } from './connection-events.js';
import { publishEffect } from '../../events/publish.js';
import { localDomainOf, userParams } from '../clients/user-clients.js';
import { selfRow } from '../users/self.js';
import type { UserRow } from '../users/user-json.js';
import { userStore } from '../users/user-store.js';
import { connectionJson, relation, userConnection } from './connection-json.js';
import { connectionBook, type ConnectionRow, putSidesEffect } from './connection-book.js';
import { actOnRemote } from './remote-connections.js';
import { actionFor } from './remote-rules.js';
import { onConnect, onUpdate, type Outcome, type Refusal } from './rules.js';
import { acceptOne2One, guardLegalholdBetween, leaveOne2One, openConnectConversation } from '../../galley/face.js';
import { deps } from '../../api/deps.js';

const refusals: Record<Refusal, ApiError> = {
  'bad-conn-update': new ApiError(brigErrors.badConnUpdate),
  'not-connected': new ApiError(brigErrors.notConnected),
};

/** The other user must be a different, activated local user outside the caller's team. */
async function counterpart(c: Context<AppEnv>, me: UserRow, uid: string): Promise<UserRow> {
  if (uid === me.id) throw new ApiError(brigErrors.invalidUser);
  if (!me.activated) throw new ApiError(brigErrors.noIdentity);
  const other = await userStore.byId(database(c.env.DB), uid);
  if (other === undefined || !other.activated || other.status === 'deleted') throw new ApiError(brigErrors.invalidUser);
  if (me.team !== null && me.team === other.team) throw new ApiError(brigErrors.sameBindingTeamUsers);
  return other;
}

/**
 * Writes an outcome of the connection rules, as wire's brig does: the two users' conversation
 * first (galley's events), then both sides (each in its user's Account object), then
 * `user.connection` to the other user when their side changed (named by the caller, unless a
 * cancellation), and to the caller. All of it is one change.
 */
async function apply(
  c: Context<AppEnv>,
  me: UserRow,
  other: UserRow,
  rows: { self?: ConnectionRow; other?: ConnectionRow },
  out: Outcome,
) {
  const db = database(c.env.DB);
  const config = c.get('config');
  if (
    out.checkLimit &&
    (await connectionBook.countActive(c.env, me.id)) >= config.brig.optSettings.setUserMaxConnections
  )
    throw new ApiError(brigErrors.connectionLimit);
  if (out.self === 'sent' || out.self === 'accepted') await guardLegalholdBetween(db, config, me.id, other.id);
  const domain = localDomainOf(c);
  const now = Date.now();
  const { conv, change } = await conversationFor(c, me, other, out);
  const row = (from: UserRow, to: UserRow, status: Relation, prev?: ConnectionRow): ConnectionRow => ({
    fromUser: from.id,
    toDomain: domain,
    toUser: to.id,
    status,
    convDomain: conv?.id.domain ?? prev?.convDomain ?? null,
    convId: conv?.id.id ?? prev?.convId ?? null,
    lastUpdate: now,
    statusBeforeLegalhold: null,
  });
  // Accepted while the conversation stays a connect one (the other user left it): their side is blocked.
  const theirStatus = out.other === 'accepted' && conv?.type === 3 ? 'blocked' : out.other;
  const mine = out.self === undefined ? rows.self : row(me, other, out.self, rows.self);
  const theirs = theirStatus === undefined ? undefined : row(other, me, theirStatus, rows.other);
  const writes = [mine !== rows.self ? mine : undefined, theirs].filter((r): r is ConnectionRow => r !== undefined);
  const effects = [];
  if (theirs !== undefined)
    effects.push(
      publishEffect([{ user: other.id }], connectionEvent(theirs, theirs.status === 'cancelled' ? undefined : me.name)),
    );
  if (mine !== undefined && mine !== rows.self && out.quiet !== true)
    effects.push(publishEffect([{ user: me.id }], connectionEvent(mine), { origin: self(c) }));
  // The sides are written before anyone hears of them (the effects run in order).
  const rowsChange = {
    statements: [],
    effects: [...(writes.length === 0 ? [] : [putSidesEffect(writes)]), ...effects],
  };
  await commitChange(c.env, config, joinChanges(change, rowsChange));
  return mine!;
}

/**
 * The two users' conversation (galley's): a request opens the connect conversation, an acceptance
 * joins it (the type says whether it became their 1:1), blocking or cancelling leaves it.
 */
async function conversationFor(
  c: Context<AppEnv>,
  me: UserRow,
  other: UserRow,
  out: Outcome,
): Promise<{ conv?: { id: QualifiedId; type?: number }; change: Change }> {
  const domain = localDomainOf(c);
  const [a, b] = [
    { id: me.id, domain },
    { id: other.id, domain },
  ];
  if (out.conversation === 'open') {
    const { id, change } = await openConnectConversation(deps(c), self(c), a, b);
    return { conv: { id }, change };
  }
  if (out.conversation === 'accept') {
    const { change, ...conv } = await acceptOne2One(deps(c), self(c), a, b);
    return { conv, change };
  }
  if (out.conversation === 'leave') return { change: await leaveOne2One(deps(c), a, b) };
  return { change: noChange() };
}

async function bothRows(c: Context<AppEnv>, me: string, other: string) {
  const domain = localDomainOf(c);
  const [self, other_] = await Promise.all([
    connectionBook.get(c.env, me, domain, other),
    connectionBook.get(c.env, other, domain, me),
  ]);
  return { self, other: other_ };
}

const connectionErrors: ErrorSpec[] = [
  brigErrors.invalidUser,
  brigErrors.noIdentity,
  brigErrors.connectionLimit,
  brigErrors.badConnUpdate,
  brigErrors.sameBindingTeamUsers,
  brigErrors.teamsNotFederating,
  legalholdErrors.missingConsent,
  ...FEDERATED_CALL_ERRORS,
];

const createRoute = {
  method: 'post',
  errors: connectionErrors,
  responses: {
    200: { description: 'The connection existed (and may have been accepted)', ...json(userConnection) },
    201: { description: 'Connection requested', ...json(userConnection) },
  },
} as const;

async function connectTo(c: Context<AppEnv>, domain: string, uid: string) {
  const me = await selfRow(c);
  if (domain !== localDomainOf(c)) {
    if (!me.activated) throw new ApiError(brigErrors.noIdentity);
    const { row, created } = await actOnRemote(c, me, { id: uid, domain }, 'connect');
    if (row === undefined) throw refusals['bad-conn-update'];
    return created ? c.json(connectionJson(row), 201) : c.json(connectionJson(row), 200);
  }
  const other = await counterpart(c, me, uid);
  const rows = await bothRows(c, me.id, other.id);
  const out = onConnect({ self: rows.self?.status, other: rows.other?.status });
  if (typeof out === 'string') throw refusals[out];
  const result = connectionJson(await apply(c, me, other, rows, out));
  return out.status === 201 ? c.json(result, 201) : c.json(result, 200);
}

export const createConnection = endpoint(
  { name: 'create-connection', path: '/connections/{domain}/{uid}', request: { params: userParams }, ...createRoute },
  (c) => connectTo(c, c.req.valid('param').domain, c.req.valid('param').uid),
);

/** v0 and v1: a local user named in the body (with the name, now unused, of the conversation to come). */
export const createConnectionUnqualified = endpoint(
  {
    name: 'create-connection-unqualified',
    path: '/connections',
    until: 2,
    request: jsonBody(z.object({ user: z.uuid(), name: z.string().min(1).max(256) }).openapi('ConnectionRequest')),
    ...createRoute,
  },
  (c) => connectTo(c, localDomainOf(c), c.req.valid('json').user),
);

const connectionUpdate = jsonBody(z.object({ status: relation }).openapi('ConnectionUpdate'));
const updateRoute = {
  method: 'put',
  errors: [brigErrors.notConnected, ...connectionErrors],
  responses: {
    200: { description: 'Connection updated', ...json(userConnection) },
    204: { description: 'No change' },
  },
} as const;

async function updateTo(c: Context<AppEnv>, domain: string, uid: string, status: z.infer<typeof relation>) {
  const me = await selfRow(c);
  if (domain !== localDomainOf(c)) {
    const action = actionFor(status);
    if (action === undefined) throw refusals['bad-conn-update'];
    const { row, changed } = await actOnRemote(c, me, { id: uid, domain }, action);
    if (row === undefined) throw refusals['bad-conn-update'];
    return changed ? c.json(connectionJson(row), 200) : c.body(null, 204);
  }
  const rows = await bothRows(c, me.id, uid);
  const out = onUpdate({ self: rows.self?.status, other: rows.other?.status }, status);
  if (typeof out === 'string') throw refusals[out];
  if (out.status === 204) return c.body(null, 204);
  const other = await userStore.byId(database(c.env.DB), uid);
  if (other === undefined) throw new ApiError(brigErrors.notConnected);
  return c.json(connectionJson(await apply(c, me, other, rows, out)), 200);
}

export const updateConnection = endpoint(
  {
    name: 'update-connection',
    path: '/connections/{domain}/{uid}',
    request: { params: userParams, ...connectionUpdate },
    ...updateRoute,
  },
  (c) => updateTo(c, c.req.valid('param').domain, c.req.valid('param').uid, c.req.valid('json').status),
);

export const updateConnectionUnqualified = endpoint(
  {
    name: 'update-connection-unqualified',
    path: '/connections/{uid}',
    until: 2,
    request: { params: z.object({ uid: z.uuid() }), ...connectionUpdate },
    ...updateRoute,
  },
  (c) => updateTo(c, localDomainOf(c), c.req.valid('param').uid, c.req.valid('json').status),
);

const getRoute = {
  method: 'get',
  responses: {
    200: { description: 'The connection', ...json(userConnection) },
    404: { description: 'No connection (empty body)' },
  },
} as const;

async function connectionTo(c: Context<AppEnv>, domain: string, uid: string) {
  const row = await connectionBook.get(c.env, self(c).user, domain, uid);
  return row === undefined ? c.body(null, 404) : c.json(connectionJson(row), 200);
}

export const getConnection = endpoint(
  { name: 'get-connection', path: '/connections/{domain}/{uid}', request: { params: userParams }, ...getRoute },
  (c) => connectionTo(c, c.req.valid('param').domain, c.req.valid('param').uid),
);

export const getConnectionUnqualified = endpoint(
  {
    name: 'get-connection-unqualified',
    path: '/connections/{uid}',
    until: 2,
    request: { params: z.object({ uid: z.uuid() }) },
    ...getRoute,
  },
  (c) => connectionTo(c, localDomainOf(c), c.req.valid('param').uid),
);

export const listLocalConnections = endpoint(
  {
    name: 'list-local-connections',
    method: 'get',
    path: '/connections',
    until: 2,
    request: {
      query: z.object({ start: z.uuid().optional(), size: z.coerce.number().int().min(1).max(500).default(100) }),
    },
    responses: {
      200: {
        description: 'A page of the connections to local users',
        ...json(
          z.object({ connections: z.array(userConnection), has_more: z.boolean() }).openapi('UserConnectionList'),
        ),
      },
    },
  },
  async (c) => {
    const { start, size } = c.req.valid('query');
    const domain = localDomainOf(c);
    // Ordered by (domain, user): this domain's rows are one run, from the first after `start`.
    const rows = await connectionBook.page(c.env, self(c).user, size + 1, {
      domain,
      user: start ?? '',
    });
    const local = rows.filter((r) => r.toDomain === domain);
    return c.json({ connections: local.slice(0, size).map(connectionJson), has_more: local.length > size }, 200);
  },
);

const pagingState = (r: ConnectionRow) => encodePagingState([r.toDomain, r.toUser]);

function afterOf(state: string | undefined): { domain: string; user: string } | undefined {
  if (state === undefined) return undefined;
  const [domain, user] = decodePagingState(state, isStringPair, brigErrors.invalidPagingState);
  return { domain, user };
}

export const listConnections = endpoint(
  {
    name: 'list-connections',
    method: 'post',
    path: '/list-connections',
    request: jsonBody(
      z
        .object({ size: z.int().min(1).max(500).default(100), paging_state: z.string().optional() })
        .openapi('GetPaginated_Connections'),
    ),
    errors: [brigErrors.invalidPagingState],
    responses: {
      200: {
        description: 'A page of connections',
        ...json(
          z
            .object({ connections: z.array(userConnection), has_more: z.boolean(), paging_state: z.string() })
            .openapi('Connections_Page'),
        ),
      },
    },
  },
  async (c) => {
    const { size, paging_state } = c.req.valid('json');
    const rows = await connectionBook.page(c.env, self(c).user, size + 1, afterOf(paging_state));
    const page = rows.slice(0, size);
    const last = page.at(-1);
    return c.json(
      {
        connections: page.map(connectionJson),
        has_more: rows.length > size,
        paging_state: last === undefined ? (paging_state ?? '') : pagingState(last),
      },
      200,
    );
  },
);
