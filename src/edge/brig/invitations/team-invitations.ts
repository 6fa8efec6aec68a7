import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json, jsonBody, locale } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { canGrant, hasPerm } from '../../api/team-permissions.js';
import { database, runBatch, type Db } from '../../db/client.js';
import { featureEnabled, roleInTeam, teamById, teamSize } from '../../galley/face.js';
import type { TeamRole } from '../../../shared/db/schema.js';
import { randomToken } from '../../../shared/keys.js';
import { sendMail } from '../email/mailer.js';
import { userStore } from '../users/user-store.js';
import { invitationJson, invitationSchema, teamRole } from './invitation-json.js';
import { invitationStore, type InvitationRow } from './invitation-store.js';
import { invitationUrl } from './invitation-urls.js';
import { guardInvite } from '../domains/email-guards.js';
import { domainErrors } from '../../api/errors/domains.js';
import { userByEmail } from '../users/user-names.js';

const params = z.object({ tid: z.uuid() });
const errors = [brigErrors.insufficientPermissions];

/** Inviting and managing invitations needs AddTeamMember (owners and admins). */
async function requireInviter(c: Context<AppEnv>, team: string): Promise<{ db: Db; role: TeamRole }> {
  const db = database(c.env.DB);
  const role = await roleInTeam(db, team, self(c).user);
  if (role === undefined || !hasPerm(role, 'AddTeamMember')) throw new ApiError(brigErrors.insufficientPermissions);
  return { db, role };
}

/** URLs are shown to team admins only with exposeInvitationURLsToTeamAdmin on, for allow-listed teams. */
async function urlsExposed(c: Context<AppEnv>, db: Db, team: string): Promise<boolean> {
  const config = c.get('config');
  if (!config.galley.settings.exposeInvitationURLsTeamAllowlist.includes(team)) return false;
  return featureEnabled(db, config, team, 'exposeInvitationURLsToTeamAdmin');
}

async function urlOf(c: Context<AppEnv>, inv: InvitationRow): Promise<string> {
  const existing = await userByEmail(c.env, inv.email);
  return invitationUrl(c.get('config'), inv.team, inv.code, existing?.activated === true);
}

export const createInvitation = endpoint(
  {
    name: 'send-team-invitation',
    method: 'post',
    path: '/teams/{tid}/invitations',
    request: {
      params,
      ...jsonBody(
        z
          .object({
            email: z.string(),
            role: teamRole.optional(),
            name: z.string().min(1).max(128).optional(),
            locale: locale.optional(),
            allow_existing: z.boolean().optional(),
          })
          .openapi('InvitationRequest'),
      ),
    },
    errors: [
      brigErrors.insufficientPermissions,
      brigErrors.invalidEmail,
      brigErrors.tooManyTeamInvitations,
      brigErrors.noEmail,
      brigErrors.emailExists,
      domainErrors.inviteNotAllowed,
    ],
    responses: { 201: { description: 'Invitation was created and sent.', ...json(invitationSchema) } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const body = c.req.valid('json');
    const config = c.get('config');
    const { db, role: mine } = await requireInviter(c, tid);
    const role = body.role ?? 'member';
    if (!canGrant(mine, role)) throw new ApiError(brigErrors.insufficientPermissions);
    if (!z.email().safeParse(body.email).success) throw new ApiError(brigErrors.invalidEmail);
    const inviter = await userStore.byId(db, self(c).user);
    if (inviter?.email === null || inviter === undefined) throw new ApiError(brigErrors.noEmail);
    const existing = await userByEmail(c.env, body.email);
    const existingUser = existing?.activated === true;
    // wire-api's InvitationRequest: from v7 an omitted allow_existing means true, before it false.
    const allowExisting = body.allow_existing ?? (c.get('apiVersion') ?? 0) >= 7;
    if (existingUser && (!allowExisting || existing.team !== null)) throw new ApiError(brigErrors.emailExists);
    await guardInvite(db, body.email, tid, existingUser);
    const pending = await invitationStore.pendingCount(db, tid);
    if ((await teamSize(db, tid)) + pending >= config.galley.settings.maxTeamSize)
      throw new ApiError(brigErrors.tooManyTeamInvitations);

    const now = Date.now();
    const row: InvitationRow = {
      id: crypto.randomUUID(),
      team: tid,
      email: body.email,
      role,
      name: body.name ?? null,
      locale: body.locale ?? null,
      code: randomToken(24),
      createdBy: inviter.id,
      createdAt: now,
      expiresAt: now + config.brig.optSettings.setTeamInvitationTimeout * 1000,
      invitee: null,
    };
    await runBatch(db, [...invitationStore.removeStale(db, tid, body.email, now), invitationStore.insert(db, row)]);
    const team = await teamById(db, tid);
    const url = invitationUrl(config, tid, row.code, existingUser);
    await sendMail(
      c.env,
      config,
      { email: body.email, locale: body.locale ?? existing?.locale },
      {
        kind: 'team-invitation',
        inviter: inviter.name,
        team: team?.name ?? '',
        url,
      },
    );
    c.header('location', `/teams/${tid}/invitations/${row.id}`);
    return c.json(invitationJson(row, (await urlsExposed(c, db, tid)) ? url : undefined), 201);
  },
);

export const listInvitations = endpoint(
  {
    name: 'get-team-invitations',
    method: 'get',
    path: '/teams/{tid}/invitations',
    request: {
      params,
      query: z.object({ start: z.uuid().optional(), size: z.coerce.number().int().min(1).max(500).optional() }),
    },
    errors,
    responses: {
      200: {
        description: 'List of sent invitations',
        ...json(z.object({ invitations: z.array(invitationSchema), has_more: z.boolean() }).openapi('InvitationList')),
      },
    },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { start, size = 100 } = c.req.valid('query');
    const { db } = await requireInviter(c, tid);
    const rows = await invitationStore.page(db, tid, size + 1, start);
    const expose = await urlsExposed(c, db, tid);
    const invitations = await Promise.all(
      rows.slice(0, size).map(async (r) => invitationJson(r, expose ? await urlOf(c, r) : undefined)),
    );
    return c.json({ invitations, has_more: rows.length > size }, 200);
  },
);

const invitationParams = params.extend({ iid: z.uuid() });

export const getInvitation = endpoint(
  {
    name: 'get-team-invitation',
    method: 'get',
    path: '/teams/{tid}/invitations/{iid}',
    request: { params: invitationParams },
    errors: [brigErrors.insufficientPermissions, brigErrors.invitationNotFound],
    responses: { 200: { description: 'Invitation', ...json(invitationSchema) } },
  },
  async (c) => {
    const { tid, iid } = c.req.valid('param');
    const { db } = await requireInviter(c, tid);
    const row = await invitationStore.byId(db, tid, iid);
    if (row === undefined) throw new ApiError(brigErrors.invitationNotFound);
    return c.json(invitationJson(row, (await urlsExposed(c, db, tid)) ? await urlOf(c, row) : undefined), 200);
  },
);

export const deleteInvitation = endpoint(
  {
    name: 'delete-team-invitation',
    method: 'delete',
    path: '/teams/{tid}/invitations/{iid}',
    request: { params: invitationParams },
    errors,
    responses: { 200: { description: 'Invitation deleted' } },
  },
  async (c) => {
    const { tid, iid } = c.req.valid('param');
    const { db } = await requireInviter(c, tid);
    if ((await invitationStore.byId(db, tid, iid)) !== undefined)
      await invitationStore.remove(db, { id: iid, team: tid }).run();
    return c.body(null, 200);
  },
);
