import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { nextTeamNoticeId, teamSize } from '../../galley/face.js';
import { commitChange } from '../../effects/commit-change.js';
import { checkUserPassword } from '../password/passwords.js';
import { userStore } from '../users/user-store.js';
import { invitationJson, invitationSchema } from './invitation-json.js';
import { invitationStore } from './invitation-store.js';
import { memberAsInvited } from './join-team.js';
import { teamSideOfJoin } from './team-side-of-join.js';
import { guardJoinByInvitation } from '../domains/email-guards.js';
import { domainErrors } from '../../api/errors/domains.js';

/** `GET /teams/invitations/info`: what the invitee sees before accepting, with the inviter's email. */
export const invitationInfo = endpoint(
  {
    name: 'get-team-invitation-info',
    method: 'get',
    path: '/teams/invitations/info',
    auth: 'none',
    request: { query: z.object({ code: z.string() }) },
    errors: [brigErrors.invalidInvitationCode],
    responses: {
      200: {
        description: 'Invitation info',
        ...json(invitationSchema.extend({ created_by_email: z.string().optional() }).openapi('InvitationUserView')),
      },
    },
  },
  async (c) => {
    const db = database(c.env.DB);
    const row = await invitationStore.byCode(db, c.req.valid('query').code);
    if (row === undefined) throw new ApiError(brigErrors.invalidInvitationCode);
    const inviter = row.createdBy === null ? undefined : await userStore.byId(db, row.createdBy);
    return c.json({ ...invitationJson(row), ...(inviter?.email ? { created_by_email: inviter.email } : {}) }, 200);
  },
);

/** `HEAD /teams/invitations/by-email`: whether one pending invitation exists for the address. */
export const invitationByEmail = endpoint(
  {
    name: 'head-team-invitations',
    method: 'head',
    path: '/teams/invitations/by-email',
    auth: 'none',
    request: { query: z.object({ email: z.string() }) },
    errors: [brigErrors.invitationNotFound, brigErrors.conflictingInvitations],
    responses: { 200: { description: 'Pending invitation exists.' } },
  },
  async (c) => {
    const found = await invitationStore.byEmail(database(c.env.DB), c.req.valid('query').email);
    if (found.length === 0) throw new ApiError(brigErrors.invitationNotFound);
    if (new Set(found.map((i) => i.team)).size > 1) throw new ApiError(brigErrors.conflictingInvitations);
    return c.body(null, 200);
  },
);

/** `POST /teams/invitations/accept`: a personal user joins the team they were invited to. */
export const acceptInvitation = endpoint(
  {
    name: 'accept-team-invitation',
    method: 'post',
    path: '/teams/invitations/accept',
    request: jsonBody(
      z.object({ code: z.string(), password: z.string().min(6).max(1024) }).openapi('AcceptTeamInvitation'),
    ),
    errors: [
      brigErrors.invalidCredentials,
      brigErrors.missingIdentity,
      brigErrors.tooManyTeamMembers,
      brigErrors.invalidInvitationCode,
      brigErrors.cannotJoinMultipleTeams,
      domainErrors.emailDomainGuard,
    ],
    responses: { 200: { description: 'Team invitation accepted.' } },
  },
  async (c) => {
    const { code, password } = c.req.valid('json');
    const config = c.get('config');
    const db = database(c.env.DB);
    const me = await userStore.byId(db, self(c).user);
    if (me === undefined) throw new ApiError(brigErrors.invalidCredentials);
    if (!(await checkUserPassword(c.env, db, config, { user: me.id }, me, password)))
      throw new ApiError(brigErrors.invalidCredentials);
    if (me.email === null) throw new ApiError(brigErrors.missingIdentity);
    // wire: a code that names no invitation, or one for another address, is an invalid code
    const inv = await invitationStore.byCode(db, code);
    if (inv === undefined || me.email.toLowerCase() !== inv.email.toLowerCase())
      throw new ApiError(brigErrors.invalidInvitationCode);
    if (me.team !== null) throw new ApiError(brigErrors.cannotJoinMultipleTeams);
    await guardJoinByInvitation(db, me.email, inv.team);
    if ((await teamSize(db, inv.team)) >= config.galley.settings.maxTeamSize)
      throw new ApiError(brigErrors.tooManyTeamMembers);
    await commitChange(c.env, config, {
      statements: [userStore.update(db, me.id, { team: inv.team }), memberAsInvited(db, me.id, inv)],
      effects: [teamSideOfJoin({ team: inv.team, user: me.id, invitation: inv.id, notice: nextTeamNoticeId() })],
    });
    return c.body(null, 200);
  },
);
