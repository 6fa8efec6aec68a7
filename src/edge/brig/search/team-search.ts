import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { decodePagingState, encodePagingState } from '../../api/paging-state.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { hasPerm } from '../../galley/teams/permissions.js';
import { teamStore } from '../../galley/teams/team-store.js';

const ROLES = ['owner', 'admin', 'member', 'partner'] as const;
const SORT_COLUMNS = {
  name: 'lower(u.name)',
  handle: "coalesce(u.handle, '')",
  email: "lower(coalesce(u.email, u.email_unvalidated, ''))",
  saml_idp: "''",
  managed_by: 'u.managed_by',
  role: 'm.role',
  created_at: 'coalesce(m.invited_at, 0)',
} as const;

interface Row extends Record<string, unknown> {
  id: string;
  name: string;
  handle: string | null;
  email: string | null;
  email_unvalidated: string | null;
  accent_id: number;
  managed_by: string;
  role: string;
  created_at: number | null;
  sort_key: string | number;
}

const teamContact = z
  .object({
    id: z.uuid(),
    name: z.string(),
    handle: z.string().optional(),
    email: z.string().optional(),
    email_unvalidated: z.string().optional(),
    accent_id: z.int().optional(),
    managed_by: z.string().optional(),
    role: z.enum(ROLES).optional(),
    created_at: z.string().optional(),
    team: z.uuid().optional(),
  })
  .openapi('TeamContact');

/** Paging positions: the last row's sort value and id, unique together. */
type Position = [string | number, string];
const isPosition = (v: unknown): v is Position =>
  Array.isArray(v) && v.length === 2 && (typeof v[0] === 'string' || typeof v[0] === 'number') && typeof v[1] === 'string';

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * `GET /teams/{tid}/search`: team admins look through their members by name, handle or email
 * prefix, filter by role, sort by any column; pages are keyed by (sort value, user id), so
 * every member appears exactly once however the sort ties.
 */
export const searchTeam = endpoint(
  {
    name: 'browse-team',
    method: 'get',
    path: '/teams/{tid}/search',
    request: {
      params: z.object({ tid: z.uuid() }),
      query: z.object({
        q: z.string().optional(),
        frole: z.union([z.enum(ROLES), z.array(z.enum(ROLES))]).optional(),
        sortby: z.enum(Object.keys(SORT_COLUMNS) as [keyof typeof SORT_COLUMNS]).optional(),
        sortorder: z.enum(['asc', 'desc']).optional(),
        size: z.coerce.number().int().min(1).max(500).optional(),
        pagingState: z.string().optional(),
      }),
    },
    errors: [brigErrors.insufficientPermissions, brigErrors.invalidPagingState],
    responses: {
      200: {
        description: 'Search results',
        ...json(
          z
            .object({
              documents: z.array(teamContact),
              found: z.int(),
              returned: z.int(),
              took: z.int(),
              search_policy: z.literal('full_search'),
              paging_state: z.string().optional(),
              has_more: z.boolean(),
            })
            .openapi('TeamSearchResult'),
        ),
      },
    },
  },
  async (c) => {
    const started = Date.now();
    const { tid } = c.req.valid('param');
    const query = c.req.valid('query');
    const role = await teamStore.roleOf(database(c.env.DB), tid, self(c).user);
    if (role === undefined || !hasPerm(role, 'AddTeamMember')) throw new ApiError(brigErrors.insufficientPermissions);
    const size = query.size ?? 15;
    const desc = query.sortorder === 'desc';
    const sortKey = SORT_COLUMNS[query.sortby ?? 'name'];
    const roles = query.frole === undefined ? [...ROLES] : [query.frole].flat();
    const q = query.q?.trim().toLowerCase() ?? '';
    const prefix = `${likeEscape(q)}%`;
    const wordPrefix = `% ${likeEscape(q)}%`;

    const filter = `m.team = ?1 AND u.status != 'deleted' AND m.role IN (SELECT value FROM json_each(?2))
      AND (?3 = '' OR lower(u.name) LIKE ?4 ESCAPE '\\' OR lower(u.name) LIKE ?5 ESCAPE '\\' OR u.handle LIKE ?4 ESCAPE '\\' OR lower(coalesce(u.email, '')) LIKE ?4 ESCAPE '\\')`;
    const base = [tid, JSON.stringify(roles), q, prefix, wordPrefix];
    const after = query.pagingState === undefined ? undefined : decodePagingState(query.pagingState, isPosition, brigErrors.invalidPagingState);
    const paging = after === undefined ? '' : `AND (${sortKey}, u.id) ${desc ? '<' : '>'} (?6, ?7)`;
    const order = desc ? 'DESC' : 'ASC';
    const db = c.env.DB;
    const [{ results }, total] = await Promise.all([
      db
        .prepare(
          `SELECT u.id, u.name, u.handle, u.email, u.email_unvalidated, u.accent_id, u.managed_by, m.role, m.invited_at AS created_at, ${sortKey} AS sort_key
           FROM team_members m JOIN users u ON u.id = m.user WHERE ${filter} ${paging}
           ORDER BY sort_key ${order}, u.id ${order} LIMIT ${size + 1}`,
        )
        .bind(...base, ...(after ?? []))
        .all<Row>(),
      db.prepare(`SELECT count(*) AS n FROM team_members m JOIN users u ON u.id = m.user WHERE ${filter}`).bind(...base).first<{ n: number }>(),
    ]);
    const page = results.slice(0, size);
    const last = page.at(-1);
    const documents = page.map((r) => ({
      id: r.id,
      name: r.name,
      ...(r.handle === null ? {} : { handle: r.handle }),
      ...(r.email === null ? {} : { email: r.email }),
      ...(r.email_unvalidated === null ? {} : { email_unvalidated: r.email_unvalidated }),
      accent_id: r.accent_id,
      managed_by: r.managed_by,
      role: r.role as (typeof ROLES)[number],
      ...(r.created_at === null ? {} : { created_at: new Date(r.created_at).toISOString() }),
      team: tid,
    }));
    return c.json(
      {
        documents,
        found: total?.n ?? 0,
        returned: documents.length,
        took: Date.now() - started,
        search_policy: 'full_search' as const,
        ...(last === undefined ? {} : { paging_state: encodePagingState([last.sort_key, last.id]) }),
        has_more: results.length > size,
      },
      200,
    );
  },
);
