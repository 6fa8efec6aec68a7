import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../api/app-env.js';
import { endpoint, type Endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { sternErrors } from '../api/errors/stern.js';
import { hasPerm, roleOfBits } from '../api/team-permissions.js';
import { accountByEmail, type Intra, passOn } from './intra.js';

// The back office's team routes (wire's stern): information, suspension, deletion.

const teamId = z.object({ tid: z.uuid() });
const passedOn = { 200: { description: "The component's answer" } };

interface Member {
  user: string;
  permissions: { self: number; copy: number };
}

/** A component's JSON answer, or its refusal as the back office's answer. */
async function answer<T>(res: Response): Promise<T | Response> {
  return res.ok ? ((await res.json()) as T) : passOn(res);
}

/** wire's TeamInfo: the team data and its members, each with whether they see and change billing. */
async function teamInfo(c: Context<AppEnv>, intra: Intra, tid: string): Promise<Response> {
  const data = await answer<unknown>(await intra.internal(c, 'GET', `/i/teams/${tid}`));
  if (data instanceof Response) return data;
  const page = await answer<{ members: Member[] }>(await intra.internal(c, 'GET', `/i/teams/${tid}/members`));
  if (page instanceof Response) return page;
  const members = page.members.map((m) => {
    const role = roleOfBits(m.permissions.self, m.permissions.copy);
    return {
      ...m,
      can_update_billing: role !== undefined && hasPerm(role, 'SetBilling'),
      can_view_billing: role !== undefined && hasPerm(role, 'GetBilling'),
    };
  });
  return c.json({ info: data, members }, 200);
}

export function sternTeamEndpoints(intra: Intra): Endpoint[] {
  const info = endpoint(
    {
      name: 'stern-get-team-info',
      auth: 'none',
      method: 'get',
      path: '/teams/{tid}',
      request: { params: teamId },
      responses: { 200: { description: 'The team, its status and its members (TeamInfo)' } },
    },
    async (c) => teamInfo(c, intra, c.req.valid('param').tid),
  );

  const byEmail = endpoint(
    {
      name: 'stern-get-team-info-by-member-email',
      auth: 'none',
      method: 'get',
      path: '/teams',
      request: { query: z.object({ email: z.string().min(1) }) },
      errors: [sternErrors.noUser, sternErrors.noBindingTeam],
      responses: { 200: { description: 'The team of the account with that email (TeamInfo)' } },
    },
    async (c) => {
      const account = await accountByEmail(c, intra, c.req.valid('query').email);
      if (account === undefined) throw new ApiError(sternErrors.noUser);
      if (account.team === undefined) throw new ApiError(sternErrors.noBindingTeam);
      return teamInfo(c, intra, account.team);
    },
  );

  const admins = endpoint(
    {
      name: 'stern-get-team-admin-info',
      auth: 'none',
      method: 'get',
      path: '/teams/{tid}/admins',
      request: { params: teamId },
      responses: { 200: { description: "The team's owners and admins (TeamAdminInfo)" } },
    },
    async (c) => {
      const { tid } = c.req.valid('param');
      const page = await answer<{ members: Member[] }>(await intra.internal(c, 'GET', `/i/teams/${tid}/members`));
      if (page instanceof Response) return page;
      const roleOf = (m: Member) => roleOfBits(m.permissions.self, m.permissions.copy);
      return c.json(
        {
          owners: page.members.filter((m) => roleOf(m) === 'owner'),
          admins: page.members.filter((m) => roleOf(m) === 'admin'),
          total_members: page.members.length,
        },
        200,
      );
    },
  );

  const status = (name: string, word: 'suspend' | 'unsuspend') =>
    endpoint(
      {
        name,
        auth: 'none',
        method: 'put',
        path: `/teams/{tid}/${word}`,
        request: { params: teamId },
        responses: passedOn,
      },
      async (c) => {
        const body = { status: word === 'suspend' ? 'suspended' : 'active' };
        return passOn(await intra.internal(c, 'PUT', `/i/teams/${c.req.valid('param').tid}/status`, body));
      },
    );

  /** With `email`, only the one-member team of that account; with `force=true`, any team. */
  const remove = endpoint(
    {
      name: 'stern-delete-team',
      auth: 'none',
      method: 'delete',
      path: '/teams/{tid}',
      request: {
        params: teamId,
        query: z.object({ force: z.enum(['true', 'false']).optional(), email: z.string().optional() }),
      },
      errors: [
        sternErrors.forceOrEmail,
        sternErrors.noUser,
        sternErrors.noBindingTeam,
        sternErrors.bindingTeamMismatch,
        sternErrors.wrongMemberCount,
      ],
      responses: { 202: { description: 'Team deleted' } },
    },
    async (c) => {
      const { tid } = c.req.valid('param');
      const { force, email } = c.req.valid('query');
      if (force !== 'true') {
        if (email === undefined) throw new ApiError(sternErrors.forceOrEmail);
        const account = await accountByEmail(c, intra, email);
        if (account === undefined) throw new ApiError(sternErrors.noUser);
        if (account.team === undefined) throw new ApiError(sternErrors.noBindingTeam);
        if (account.team !== tid) throw new ApiError(sternErrors.bindingTeamMismatch);
        const page = await answer<{ members: Member[] }>(await intra.internal(c, 'GET', `/i/teams/${tid}/members`));
        if (page instanceof Response) return page;
        if (page.members.length !== 1) throw new ApiError(sternErrors.wrongMemberCount);
      }
      return passOn(await intra.internal(c, 'DELETE', `/i/teams/${tid}`));
    },
  );

  return [
    byEmail,
    info,
    admins,
    status('stern-suspend-team', 'suspend'),
    status('stern-unsuspend-team', 'unsuspend'),
    remove,
  ];
}
