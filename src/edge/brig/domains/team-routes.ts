import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { domainErrors } from '../../api/errors/domains.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { database } from '../../db/client.js';
import { saveUpdate } from './audit.js';
import { ownershipToken } from './challenges.js';
import { registrationJson, registrationResponse } from './registration-json.js';
import { backendFormat, domainOf, domainParam, ownedWith } from './registration-rules.js';
import { registrationStore, type RegistrationRow } from './registration-store.js';
import { domainTeamAdmin } from './team-guard.js';
import { deps } from '../../api/deps.js';

const teamGuardErrors = [domainErrors.operationForbidden, domainErrors.paymentRequired];

/** `POST /domain-verification/{domain}/authorize-team`: the bearer of the ownership token gives the domain to their team. */
export const authorizeTeam = endpoint(
  {
    name: 'domain-verification-authorize-team',
    method: 'post',
    path: '/domain-verification/{domain}/authorize-team',
    summary: "Authorize the caller's team to manage the domain",
    request: { params: domainParam, ...jsonBody(ownershipToken) },
    errors: [domainErrors.invalidDomain, ...teamGuardErrors, domainErrors.authFailure],
    responses: { 200: { description: 'Authorized' } },
  },
  async (c) => {
    const domain = domainOf(c.req.valid('param').domain);
    const team = await domainTeamAdmin(c);
    const db = database(c.env.DB);
    const row = await ownedWith(await registrationStore.get(db, domain), c.req.valid('json').domain_ownership_token);
    if (row.redirect === 'locked') throw new ApiError(domainErrors.operationForbidden);
    await registrationStore.put(db, { ...row, authorizedTeam: team });
    return c.body(null, 200);
  },
);

const teamInviteConfig = z
  .object({
    team_invite: z.enum(['allowed', 'not-allowed', 'team']),
    team: z.uuid().optional(),
    domain_redirect: z.enum(['none', 'no-registration']).optional(),
    sso: z.uuid().optional(),
  })
  .superRefine((u, ctx) => {
    if (u.team_invite === 'team' && u.team === undefined)
      ctx.addIssue({ code: 'custom', path: ['team'], message: 'required with team_invite team' });
    if (u.domain_redirect !== undefined && u.sso !== undefined)
      ctx.addIssue({ code: 'custom', path: ['sso'], message: 'either domain_redirect or sso, not both' });
  })
  .openapi('TeamInviteConfig');

/**
 * `POST /domain-verification/{domain}/team`: the authorized team decides who may invite the
 * domain's users (anyone, nobody, only itself) and whether they sign in through one of its IdPs
 * or may not register at all. A domain sent to another backend is no longer the team's to change.
 */
export const updateTeamInvite = endpoint(
  {
    name: 'update-team-invite',
    method: 'post',
    path: '/domain-verification/{domain}/team',
    summary: 'Update the team invite and redirect settings of a domain',
    request: { params: domainParam, ...jsonBody(teamInviteConfig) },
    errors: [domainErrors.invalidDomain, ...teamGuardErrors],
    responses: { 200: { description: 'Updated' } },
  },
  async (c) => {
    const domain = domainOf(c.req.valid('param').domain);
    const team = await domainTeamAdmin(c);
    const db = database(c.env.DB);
    const before = await registrationStore.get(db, domain);
    const config = c.req.valid('json');
    if (
      before === undefined ||
      before.authorizedTeam !== team ||
      before.redirect === 'locked' ||
      before.redirect === 'backend' ||
      (config.team_invite === 'team' && config.team !== team)
    )
      throw new ApiError(domainErrors.operationForbidden);
    let after: RegistrationRow = {
      ...before,
      teamInvite: config.team_invite,
      inviteTeam: config.team_invite === 'team' ? team : null,
    };
    if (config.sso !== undefined) {
      if (!(await deps(c).sso.teamIdpIds(team)).includes(config.sso))
        throw new ApiError(domainErrors.operationForbidden);
      after = { ...after, redirect: 'sso', ssoCode: config.sso };
    } else if (config.domain_redirect !== undefined)
      after = { ...after, redirect: config.domain_redirect, ssoCode: null };
    await saveUpdate(c, before, after);
    return c.body(null, 200);
  },
);

const teamParam = z.object({ teamId: z.uuid() });

/** `GET /teams/{teamId}/registered-domains`: the domains the team was authorized for. */
export const getRegisteredDomains = endpoint(
  {
    name: 'get-all-registered-domains',
    method: 'get',
    path: '/teams/{teamId}/registered-domains',
    summary: 'Get all registered domains of a team',
    request: { params: teamParam },
    errors: teamGuardErrors,
    responses: {
      200: {
        description: 'The registered domains',
        ...json(z.object({ registered_domains: z.array(registrationResponse) }).openapi('RegisteredDomains')),
      },
    },
  },
  async (c) => {
    const team = await domainTeamAdmin(c, c.req.valid('param').teamId);
    const rows = await registrationStore.ofTeam(database(c.env.DB), team);
    const format = backendFormat(c);
    return c.json({ registered_domains: rows.map((row) => registrationJson(row, format)) }, 200);
  },
);

/** `DELETE /teams/{teamId}/registered-domains/{domain}`: the team gives the domain up; its registration goes. */
export const deleteRegisteredDomain = endpoint(
  {
    name: 'delete-registered-domain',
    method: 'delete',
    path: '/teams/{teamId}/registered-domains/{domain}',
    summary: 'Delete a registered domain of a team',
    request: { params: teamParam.extend(domainParam.shape) },
    errors: [domainErrors.invalidDomain, ...teamGuardErrors, domainErrors.notFound],
    responses: { 204: { description: 'Deleted' } },
  },
  async (c) => {
    const { teamId, domain: text } = c.req.valid('param');
    const domain = domainOf(text);
    const team = await domainTeamAdmin(c, teamId);
    const db = database(c.env.DB);
    const row = await registrationStore.get(db, domain);
    if (row === undefined) throw new ApiError(domainErrors.notFound);
    if (row.authorizedTeam !== team) throw new ApiError(domainErrors.operationForbidden);
    await registrationStore.delete(db, domain);
    return c.body(null, 204);
  },
);
