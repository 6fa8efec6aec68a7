import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../helpers/backend.js';
import { call } from '../helpers/http.js';
import { createUser, teamOwner, type TestUser } from '../helpers/users.js';
import { openSocket } from '../helpers/websocket.js';
import {
  getSelf,
  claimKeyPackages,
  getUser,
  getUserPrekeyBundle,
  listUsers,
  listUsersPrekeys,
  postAccess,
  postConnection,
  postLogin,
  searchContacts,
  getTeamSearch,
} from '../helpers/endpoints/brig.js';
import { getNotifications } from '../helpers/endpoints/gundeck.js';
import {
  getTeamMembers,
  getTeamMembersByIds,
  listConversationIds,
  postConversation,
} from '../helpers/endpoints/galley.js';
import { addClient } from '../helpers/clients.js';
import { otrMessage, postOtr } from '../helpers/otr.js';

// GET /i/metrics: what every isolate of the worker counted, summed in one object and kept there,
// in Prometheus' text format under wire's metric names.

let b: TestBackend;
let u: TestUser;

beforeAll(async () => {
  b = await startEditedBackend([]);
  u = await createUser(b.publicUrl, b.internalUrl);
});
afterAll(async () => b?.stop());

async function scrape(): Promise<string> {
  const r = await call(b.internalUrl, '/i/metrics');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return r.text;
}

/** A series' value in an exposition (0 when absent). */
const seriesValue = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

describe('GET /i/metrics', () => {
  it('counts requests per route template, method and status, with latency buckets', async () => {
    const self = 'http_request_duration_seconds_count{handler="/self",method="GET",status_code="200"}';
    const before = seriesValue(await scrape(), self);
    for (let i = 0; i < 3; i++) expect((await getSelf(b.publicUrl, u.token)).status).toBe(200);
    expect((await getUser(b.publicUrl, u.token, { domain: 'example.com', id: u.id })).status).toBe(200);
    expect((await call(b.publicUrl, '/v8/no/such/route')).status).toBe(404);
    const text = await scrape();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(seriesValue(text, self)).toBe(before + 3);
    expect(
      seriesValue(
        text,
        'http_request_duration_seconds_count{handler="/users/:domain/:uid",method="GET",status_code="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(seriesValue(text, 'http_request_duration_seconds_count{handler="N/A",method="GET",status_code="404"}')).toBe(
      1,
    );
    const inf = 'http_request_duration_seconds_bucket{handler="/self",method="GET",status_code="200",le="+Inf"}';
    expect(seriesValue(text, inf)).toBe(before + 3);
    expect(text).toMatch(/http_request_duration_seconds_sum\{handler="\/self",method="GET",status_code="200"\} \d/);
  });

  it('counts notifications appended and delivered to websockets, from the notification objects', async () => {
    const socket = await openSocket(b.publicUrl, `/v8/await?access_token=${u.token}`);
    const delivered = 'svc_websocket_deliveries_total{protocol="await"}';
    const before = seriesValue(await scrape(), delivered);
    const v = await createUser(b.publicUrl, b.internalUrl);
    expect((await postConnection(b.publicUrl, v.token, { domain: 'example.com', id: u.id })).status).toBe(201);
    await socket.next((m) => m.payload?.[0]?.type === 'user.connection');
    await socket.close();
    // The objects' isolate sends its counts within a second of counting.
    await expect.poll(async () => seriesValue(await scrape(), delivered), { timeout: 5000 }).toBe(before + 1);
    expect(seriesValue(await scrape(), 'svc_notifications_appended_total{transient="false"}')).toBeGreaterThanOrEqual(
      1,
    );
  });

  it('keeps the counts across a restart', async () => {
    const self = 'http_request_duration_seconds_count{handler="/self",method="GET",status_code="200"}';
    const counted = seriesValue(await scrape(), self);
    expect(counted).toBeGreaterThan(0);
    const stateDir = b.stateDir;
    await b.stop();
    b = await startEditedBackend([], { stateDir, migrate: false });
    expect(seriesValue(await scrape(), self)).toBe(counted);
  });

  it('counts the D1 statements and object calls each request made, by route: a warm message send runs no statement', async () => {
    const queries = (handler: string, method: string) =>
      seriesValue(text, `svc_d1_queries_total{handler="${handler}",method="${method}"}`);
    let text = await scrape();
    const client = await addClient(b.publicUrl, u);
    const conv = (await postConversation(b.publicUrl, u.token, { qualified_users: [], name: 'q' })).body.qualified_id;
    const send = () => postOtr(b.publicUrl, u.token, conv.id, otrMessage(client, [{ user: u.id, client, text: 'x' }]));
    expect((await send()).status).toBe(201); // the conversation's object reads its members once
    expect((await getNotifications(b.publicUrl, u.token, { client })).status).toBe(200); // marks the client active
    expect((await listConversationIds(b.publicUrl, u.token, {})).status).toBe(200); // makes the MLS self conversation
    text = await scrape();
    const ops: Array<[string, string, () => Promise<{ status: number }>]> = [
      ['/self', 'GET', () => getSelf(b.publicUrl, u.token)],
      ['/login', 'POST', () => postLogin(b.publicUrl, { email: u.email, password: u.password })],
      ['/access', 'POST', () => postAccess(b.publicUrl, undefined, u.cookie)],
      ['/notifications', 'GET', () => getNotifications(b.publicUrl, u.token, { client })],
      [
        '/users/list-prekeys',
        'POST',
        () => listUsersPrekeys(b.publicUrl, u.token, { 'example.com': { [u.id]: [client] } }),
      ],
      ['/conversations/:cnv_domain/:cnv/proteus/messages', 'POST', send],
      ['/conversations/list-ids', 'POST', () => listConversationIds(b.publicUrl, u.token, {})],
      [
        '/users/:domain/:uid/prekeys',
        'GET',
        () => getUserPrekeyBundle(b.publicUrl, u.token, { domain: 'example.com', id: u.id }),
      ],
      [
        '/mls/key-packages/claim/:user_domain/:user',
        'POST',
        () => claimKeyPackages(b.publicUrl, u.token, { domain: 'example.com', id: u.id }),
      ],
    ];
    const CLASSES = ['Account', 'Conversation', 'NotificationShard', 'RateLimiter'];
    const objectCalls = (handler: string, method: string) =>
      CLASSES.map((k) =>
        seriesValue(text, `svc_object_calls_total{handler="${handler}",method="${method}",class="${k}"}`),
      );
    const counts: Record<string, number> = {};
    const calls: Record<string, Record<string, number>> = {};
    for (const [handler, method, op] of ops) {
      const before = queries(handler, method);
      const callsBefore = objectCalls(handler, method);
      expect((await op()).status).toBeLessThan(300);
      text = await scrape();
      counts[`${method} ${handler}`] = queries(handler, method) - before;
      const made = objectCalls(handler, method).map((n, i) => [CLASSES[i]!, n - callsBefore[i]!] as const);
      calls[`${method} ${handler}`] = Object.fromEntries(made.filter(([, n]) => n > 0));
    }
    // The object calls each made (svc_object_calls_total), which the capacity model takes: the
    // objects' own calls on (a send's fan-out to notification shards) are theirs, not counted here.
    expect(calls).toEqual({
      'GET /self': {},
      'POST /login': { Account: 2, RateLimiter: 2 },
      'POST /access': { Account: 1 },
      'GET /notifications': { NotificationShard: 1 },
      'POST /users/list-prekeys': { Account: 1 },
      'POST /conversations/:cnv_domain/:cnv/proteus/messages': { Conversation: 1 },
      'POST /conversations/list-ids': { Account: 1, Conversation: 2 },
      'GET /users/:domain/:uid/prekeys': { Account: 1 },
      'POST /mls/key-packages/claim/:user_domain/:user': { Account: 1, RateLimiter: 2 },
    });
    // Issue 44's budgets (login at most 3, the others 0 but GET /self's account row): cookies,
    // prekeys and key packages live in the users' Account objects, with whether they may be claimed.
    expect(counts).toEqual({
      'GET /self': 1,
      // The email's claim (in its name's partition), then the account.
      'POST /login': 2,
      'POST /access': 0,
      'GET /notifications': 0,
      'POST /users/list-prekeys': 0,
      'POST /conversations/:cnv_domain/:cnv/proteus/messages': 0,
      // The user's conversation ids are in their Account object; the MLS self conversation the
      // listing makes sure of is its object's (its row, then its members).
      'POST /conversations/list-ids': 0,
      'GET /users/:domain/:uid/prekeys': 0,
      // The Account object keeps the directory's word that the user may be claimed.
      'POST /mls/key-packages/claim/:user_domain/:user': 0,
    });
  });

  it("reads other users' profiles, searches and team member lists in sessions a D1 replica may serve, the caller's own account from the primary", async () => {
    const other = await createUser(b.publicUrl, b.internalUrl);
    const owner = await teamOwner(b.publicUrl, b.internalUrl);
    const series = (name: string, handler: string, method: string) =>
      seriesValue(text, `${name}{handler="${handler}",method="${method}"}`);
    let text = await scrape();
    const ops: Array<[string, string, () => Promise<{ status: number }>]> = [
      [
        '/list-users',
        'POST',
        () => listUsers(b.publicUrl, u.token, { qualified_ids: [{ id: other.id, domain: 'example.com' }] }),
      ],
      ['/search/contacts', 'GET', () => searchContacts(b.publicUrl, u.token, { q: 'test' })],
      ['/self', 'GET', () => getSelf(b.publicUrl, u.token)],
      ['/teams/:tid/members', 'GET', () => getTeamMembers(b.publicUrl, owner.token, owner.team)],
      [
        '/teams/:tid/get-members-by-ids-using-post',
        'POST',
        () => getTeamMembersByIds(b.publicUrl, owner.token, owner.team, { user_ids: [owner.id] }),
      ],
      ['/teams/:tid/search', 'GET', () => getTeamSearch(b.publicUrl, owner.token, owner.team)],
      [
        '/teams/:tid/members/csv',
        'GET',
        () =>
          call(b.publicUrl, `/teams/${owner.team}/members/csv`, {
            headers: { authorization: `Bearer ${owner.token}` },
          }),
      ],
    ];
    const counts: Record<string, [number, number]> = {};
    for (const [handler, method, op] of ops) {
      const before = [
        series('svc_d1_queries_total', handler, method),
        series('svc_d1_replica_queries_total', handler, method),
      ];
      expect((await op()).status).toBe(200);
      text = await scrape();
      const after = [
        series('svc_d1_queries_total', handler, method),
        series('svc_d1_replica_queries_total', handler, method),
      ];
      counts[`${method} ${handler}`] = [after[0]! - before[0]!, after[1]! - before[1]!];
    }
    // [all statements, of which in a replica's reach]
    expect(counts['POST /list-users']![1]).toBeGreaterThan(0);
    expect(counts['POST /list-users']![0]).toBe(counts['POST /list-users']![1]);
    expect(counts['GET /search/contacts']![1]).toBeGreaterThan(0);
    expect(counts['GET /self']).toEqual([1, 0]);
    // The caller's own membership (may they list?) from the primary, one statement; the list from
    // a replica's reach.
    for (const route of [
      'GET /teams/:tid/members',
      'POST /teams/:tid/get-members-by-ids-using-post',
      'GET /teams/:tid/search',
      'GET /teams/:tid/members/csv',
    ]) {
      const [all, replica] = counts[route]!;
      expect(replica, route).toBeGreaterThan(0);
      expect(all - replica, route).toBe(1);
    }
  });
});
