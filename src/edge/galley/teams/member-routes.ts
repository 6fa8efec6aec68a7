import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { decodePagingState, encodePagingState } from '../../api/paging-state.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { canGrant, hasHiddenPerm, hasPerm, roleOfBits } from '../../api/team-permissions.js';
import { type Db, replicaOf } from '../../db/client.js';
import type { TeamRole } from '../../../shared/db/schema.js';
import { requireTeamMember } from './team-access.js';
import { permissionsSchema, teamMemberJson, teamMemberSchema } from './team-json.js';
import { teamStore } from './team-store.js';
import { changeMemberRole } from './member-changes.js';
import { deps } from '../../api/deps.js';

const params = z.object({ tid: z.uuid() });
const MAX_PAGE = 2000;
const memberList = z.object({ members: z.array(teamMemberSchema), hasMore: z.boolean() }).openapi('TeamMemberList');

const isUserId = (v: unknown): v is string => typeof v === 'string' && z.uuid().safeParse(v).success;
const decodeState = (state: string) => decodePagingState(state, isUserId, galleyErrors.invalidPagingState);

export const getTeamMembers = endpoint(
  {
    name: 'get-team-members',
    method: 'get',
    path: '/teams/{tid}/members',
    request: {
      params,
      query: z.object({
        maxResults: z.coerce.number().int().min(1).max(MAX_PAGE).optional(),
        pagingState: z.string().optional(),
      }),
    },
    errors: [galleyErrors.noTeamMember],
    responses: {
      200: {
        description: 'A page of members',
        ...json(
          z
            .object({ members: z.array(teamMemberSchema), hasMore: z.boolean(), pagingState: z.string() })
            .openapi('TeamMembersPage'),
        ),
      },
    },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { maxResults = MAX_PAGE, pagingState } = c.req.valid('query');
    const { db } = deps(c);
    const role = await requireTeamMember(deps(c), self(c).user, tid);
    if (!hasHiddenPerm(role, 'SearchContacts')) return c.json(await selfAndInviter(db, tid, self(c).user, role), 200);
    // The caller's membership is read from the primary, the others' rows from a replica's reach.
    const rows = await teamStore.members(
      replicaOf(c.env.DB),
      tid,
      maxResults + 1,
      pagingState === undefined ? undefined : decodeState(pagingState),
    );
    const page = rows.slice(0, maxResults);
    const visible = hasPerm(role, 'GetMemberPermissions');
    const last = page.at(-1)?.user;
    return c.json(
      {
        members: page.map((m) => teamMemberJson(m, visible)),
        hasMore: rows.length > maxResults,
        pagingState: last === undefined ? (pagingState ?? '') : encodePagingState(last),
      },
      200,
    );
  },
);

/** What a member who may not search contacts (a partner) sees of the team: itself and who invited it. */
async function selfAndInviter(db: Db, tid: string, uid: string, role: TeamRole) {
  const me = await teamStore.member(db, tid, uid);
  const ids = [uid, ...(me?.invitedBy ? [me.invitedBy] : [])];
  const rows = await teamStore.membersByIds(db, tid, ids);
  return {
    members: rows.map((m) => teamMemberJson(m, hasPerm(role, 'GetMemberPermissions'))),
    hasMore: false,
    pagingState: '',
  };
}

export const getTeamMember = endpoint(
  {
    name: 'get-team-member',
    method: 'get',
    path: '/teams/{tid}/members/{uid}',
    request: { params: params.extend({ uid: z.uuid() }) },
    errors: [galleyErrors.noTeamMember, galleyErrors.noTeamMemberFound],
    responses: { 200: { description: 'The member', ...json(teamMemberSchema) } },
  },
  async (c) => {
    const { tid, uid } = c.req.valid('param');
    const { db } = deps(c);
    const role = await requireTeamMember(deps(c), self(c).user, tid);
    const member = await teamStore.member(db, tid, uid);
    if (member === undefined) throw new ApiError(galleyErrors.noTeamMemberFound);
    return c.json(teamMemberJson(member, hasPerm(role, 'GetMemberPermissions')), 200);
  },
);

export const getTeamMembersByIds = endpoint(
  {
    name: 'get-team-members-by-ids',
    method: 'post',
    path: '/teams/{tid}/get-members-by-ids-using-post',
    request: {
      params,
      query: z.object({ maxResults: z.coerce.number().int().min(1).max(MAX_PAGE).optional() }),
      ...jsonBody(z.object({ user_ids: z.array(z.uuid()) }).openapi('UserIdList')),
    },
    errors: [galleyErrors.noTeamMember, galleyErrors.tooManyUids],
    responses: { 200: { description: 'The members among the ids', ...json(memberList) } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { maxResults = MAX_PAGE } = c.req.valid('query');
    const { user_ids } = c.req.valid('json');
    if (user_ids.length > MAX_PAGE) throw new ApiError(galleyErrors.tooManyUids);
    const role = await requireTeamMember(deps(c), self(c).user, tid);
    const rows = await teamStore.membersByIds(replicaOf(c.env.DB), tid, user_ids.slice(0, maxResults));
    return c.json(
      { members: rows.map((m) => teamMemberJson(m, hasPerm(role, 'GetMemberPermissions'))), hasMore: false },
      200,
    );
  },
);

/**
 * `PUT /teams/{tid}/members`: changes a member's role. The caller needs SetMemberPermissions, may
 * only hand out permissions it holds, may not change an owner unless it is one, and the last
 * owner stays an owner. Owners and admins get `team.member-update`.
 */
export const updateTeamMember = endpoint(
  {
    name: 'update-team-member',
    method: 'put',
    path: '/teams/{tid}/members',
    request: {
      params,
      ...jsonBody(
        z.object({ member: z.object({ user: z.uuid(), permissions: permissionsSchema }) }).openapi('NewTeamMember'),
      ),
    },
    errors: [
      galleyErrors.noTeamMember,
      galleyErrors.operationDenied,
      galleyErrors.invalidPermissions,
      galleyErrors.noOtherOwner,
      galleyErrors.noTeamMemberFound,
    ],
    responses: { 200: { description: 'Member updated' } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { user, permissions } = c.req.valid('json').member;
    const { db } = deps(c);
    const mine = await requireTeamMember(deps(c), self(c).user, tid);
    if (!hasPerm(mine, 'SetMemberPermissions')) throw new ApiError(galleyErrors.operationDenied);
    const role = roleOfBits(permissions.self, permissions.copy);
    if (role === undefined) throw new ApiError(galleyErrors.invalidPermissions);
    const target = await teamStore.member(db, tid, user);
    if (target === undefined) throw new ApiError(galleyErrors.noTeamMemberFound);
    if (!canGrant(mine, role) || (target.role === 'owner' && mine !== 'owner'))
      throw new ApiError(galleyErrors.operationDenied);
    if (target.role === 'owner' && role !== 'owner' && (await teamStore.withRoles(db, tid, ['owner'])).length <= 1)
      throw new ApiError(galleyErrors.noOtherOwner);
    await changeMemberRole(c.env, db, c.get('config'), { team: tid, user, role, origin: self(c) });
    return c.body(null, 200);
  },
);
