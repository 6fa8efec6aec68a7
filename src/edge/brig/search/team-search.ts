import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { decodePagingState, encodePagingState } from '../../api/paging-state.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { hasPerm } from '../../api/team-permissions.js';
import { database, replicaSessionOf } from '../../db/client.js';
import { roleInTeam } from '../../galley/face.js';
import { TEAM_ROLES, TEAM_SORT_COLUMNS, teamSearchPage, type TeamSearchPosition } from './team-search-store.js';
import { directoryOf } from '../../db/directory.js';

const teamContact = z
  .object({
    id: z.uuid(),
    name: z.string(),
    handle: z.string().optional(),
    email: z.string().optional(),
    email_unvalidated: z.string().optional(),
    accent_id: z.int().optional(),
    managed_by: z.string().optional(),
    role: z.enum(TEAM_ROLES).optional(),
    created_at: z.string().optional(),
    team: z.uuid().optional(),
  })
  .openapi('TeamContact');

const isPosition = (v: unknown): v is TeamSearchPosition =>
  Array.isArray(v) &&
  v.length === 2 &&
  (typeof v[0] === 'string' || typeof v[0] === 'number') &&
  typeof v[1] === 'string';

/**
 * `GET /teams/{tid}/search`: team admins look through their members by name, handle or email
 * prefix, filter by role and by whether an email awaits verification, sort by any column; pages are keyed by (sort value, user id), so
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
        // wire's RoleFilter: roles separated by commas (a repeated parameter is taken too)
        frole: z
          .union([z.string(), z.array(z.string())])
          .transform((v) =>
            [v]
              .flat()
              .flatMap((s) => s.split(','))
              .filter((s) => s !== ''),
          )
          .pipe(z.array(z.enum(TEAM_ROLES)))
          .optional(),
        sortby: z.enum(Object.keys(TEAM_SORT_COLUMNS) as [keyof typeof TEAM_SORT_COLUMNS]).optional(),
        sortorder: z.enum(['asc', 'desc']).optional(),
        size: z.coerce.number().int().min(1).max(500).optional(),
        pagingState: z.string().optional(),
        email: z.enum(['verified', 'unverified']).optional(),
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
    const role = await roleInTeam(database(c.env.DB), tid, self(c).user);
    if (role === undefined || !hasPerm(role, 'AddTeamMember')) throw new ApiError(brigErrors.insufficientPermissions);
    const size = query.size ?? 15;
    const after =
      query.pagingState === undefined
        ? undefined
        : decodePagingState(query.pagingState, isPosition, brigErrors.invalidPagingState);
    const { rows: results, total } = await teamSearchPage(directoryOf(c.env).all.map(replicaSessionOf), {
      team: tid,
      roles: query.frole === undefined || query.frole.length === 0 ? [...TEAM_ROLES] : query.frole,
      email: query.email,
      q: query.q?.trim().toLowerCase() ?? '',
      sortBy: query.sortby ?? 'name',
      desc: query.sortorder === 'desc',
      after,
      size,
    });
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
      role: r.role as (typeof TEAM_ROLES)[number],
      ...(r.created_at === null ? {} : { created_at: new Date(r.created_at).toISOString() }),
      team: tid,
    }));
    return c.json(
      {
        documents,
        found: total,
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
