import { z } from '@hono/zod-openapi';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { json } from '../../api/schemas/common.js';
import { legalholdStatus } from '../../api/schemas/legalhold-status.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { commitChange } from '../../effects/commit-change.js';
import { clientsChangedEffect } from '../conversations/conversation-object.js';
import { requireReauth } from '../teams/reauth.js';
import { approveDevice, requestDevice } from './device-flow.js';
import { endLegalhold } from './end-legalhold.js';
import { legalholdStore } from './legalhold-store.js';
import { requireLegalholdAdmin } from './member-access.js';
import { requireLegalholdEnabled } from './team-legalhold.js';
import { deps } from '../../api/deps.js';

const teamParam = { params: z.object({ tid: z.uuid() }) };
const memberParams = { params: z.object({ tid: z.uuid(), uid: z.uuid() }) };
const passwordBody = (name: string) => ({
  body: {
    required: false,
    ...json(z.object({ password: z.string().min(6).max(1024).optional() }).openapi(name)),
  },
});
/** The password a request carries, if any (its body is optional). */
const passwordOf = (body: unknown) => (body as { password?: string } | undefined)?.password;

const prekey = z.object({ id: z.int(), key: z.string() }).openapi('Prekey');
const statusView = z
  .object({
    status: legalholdStatus,
    last_prekey: prekey.optional(),
    client: z.object({ id: z.string() }).optional(),
  })
  .openapi('UserLegalHoldStatusResponse');

/** `GET /teams/{tid}/legalhold/{uid}`: a member's status and, once requested, their device's last prekey. */
const getStatus = endpoint(
  {
    name: 'get-legal-hold',
    method: 'get',
    path: '/teams/{tid}/legalhold/{uid}',
    request: memberParams,
    errors: [galleyErrors.noTeamMemberFound],
    responses: { 200: { description: "The member's legal hold status", ...json(statusView) } },
  },
  async (c) => {
    const { tid, uid } = c.req.valid('param');
    const db = database(c.env.DB);
    const status = await legalholdStore.status(db, tid, uid);
    if (status === undefined) throw new ApiError(galleyErrors.noTeamMemberFound);
    if (status !== 'pending' && status !== 'enabled') return c.json({ status }, 200);
    const last = (await legalholdStore.pendingPrekeys(db, uid)).find((p) => p.id === 65535);
    if (last === undefined) return c.json({ status }, 200);
    return c.json({ status, last_prekey: last, client: { id: await deps(c).users.legalholdClientId(last) } }, 200);
  },
);

/** `POST /teams/{tid}/legalhold/consent`: the caller agrees to legal hold (201), or had already (204). */
const consent = endpoint(
  {
    name: 'consent-to-legal-hold',
    method: 'post',
    path: '/teams/{tid}/legalhold/consent',
    request: teamParam,
    errors: [galleyErrors.noTeamMemberFound],
    responses: { 201: { description: 'Grant consent successful' }, 204: { description: 'Consent already granted' } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const db = database(c.env.DB);
    const me = self(c).user;
    const status = await legalholdStore.status(db, tid, me);
    if (status === undefined) throw new ApiError(galleyErrors.noTeamMemberFound);
    if (status !== 'no_consent') return c.body(null, 204);
    // Conversations keep who consented (messages are refused where someone has not): tell them.
    const domain = deps(c).domain;
    await commitChange(c.env, c.get('config'), {
      statements: [legalholdStore.setStatus(db, tid, me, 'disabled')],
      effects: [clientsChangedEffect({ id: me, domain })],
    });
    return c.body(null, 201);
  },
);

/** `POST /teams/{tid}/legalhold/{uid}`: an admin asks the service for a device for the member. */
const request = endpoint(
  {
    name: 'request-legal-hold-device',
    method: 'post',
    path: '/teams/{tid}/legalhold/{uid}',
    request: memberParams,
    errors: [
      legalholdErrors.notEnabledForTeam,
      galleyErrors.noTeamMember,
      galleyErrors.operationDenied,
      galleyErrors.noTeamMemberFound,
      legalholdErrors.alreadyEnabled,
      legalholdErrors.noConsent,
      legalholdErrors.mlsNotAllowed,
      legalholdErrors.notRegistered,
      legalholdErrors.statusBad,
      legalholdErrors.unavailable,
    ],
    responses: {
      201: { description: 'Request device successful' },
      204: { description: 'Request device already pending' },
    },
  },
  async (c) => {
    const { tid, uid } = c.req.valid('param');
    const config = c.get('config');
    await requireLegalholdEnabled(database(c.env.DB), config, tid);
    const { db } = deps(c);
    await requireLegalholdAdmin(deps(c), self(c).user, tid, 'ChangeLegalHoldUserSettings');
    const status = await legalholdStore.status(db, tid, uid);
    if (status === undefined) throw new ApiError(galleyErrors.noTeamMemberFound);
    if (status === 'enabled') throw new ApiError(legalholdErrors.alreadyEnabled);
    if (status === 'no_consent') throw new ApiError(legalholdErrors.noConsent);
    await requestDevice(deps(c), { team: tid, user: uid });
    return c.body(null, status === 'pending' ? 204 : 201);
  },
);

/** `PUT /teams/{tid}/legalhold/{uid}/approve`: the member approves the device, with their password. */
const approve = endpoint(
  {
    name: 'approve-legal-hold-device',
    method: 'put',
    path: '/teams/{tid}/legalhold/{uid}/approve',
    request: { ...memberParams, ...passwordBody('ApproveLegalHoldForUserRequest') },
    errors: [
      legalholdErrors.notEnabledForTeam,
      galleyErrors.resourceAccessDenied,
      galleyErrors.noTeamMember,
      galleyErrors.reauthRequired,
      legalholdErrors.alreadyEnabled,
      legalholdErrors.notPending,
      legalholdErrors.noDevice,
      legalholdErrors.notRegistered,
      legalholdErrors.unavailable,
    ],
    responses: { 200: { description: 'Legal hold approved' } },
  },
  async (c) => {
    const { tid, uid } = c.req.valid('param');
    const config = c.get('config');
    const db = database(c.env.DB);
    await requireLegalholdEnabled(db, config, tid);
    if (self(c).user !== uid) throw new ApiError(galleyErrors.resourceAccessDenied);
    const status = await legalholdStore.status(db, tid, uid);
    if (status === undefined) throw new ApiError(galleyErrors.noTeamMember);
    await requireReauth(deps(c), self(c).user, passwordOf(c.req.valid('json')));
    if (status === 'enabled') throw new ApiError(legalholdErrors.alreadyEnabled);
    if (status !== 'pending') throw new ApiError(legalholdErrors.notPending);
    await approveDevice(deps(c), { team: tid, user: uid, origin: self(c) });
    return c.body(null, 200);
  },
);

/** `DELETE /teams/{tid}/legalhold/{uid}`: an admin ends a member's legal hold (200), if there was one (else 204). */
const disable = endpoint(
  {
    name: 'disable-legal-hold-for-user',
    method: 'delete',
    path: '/teams/{tid}/legalhold/{uid}',
    request: { ...memberParams, ...passwordBody('DisableLegalHoldForUserRequest') },
    errors: [
      galleyErrors.noTeamMember,
      galleyErrors.operationDenied,
      galleyErrors.reauthRequired,
      legalholdErrors.unavailable,
    ],
    responses: {
      200: { description: 'Disable legal hold successful' },
      204: { description: 'Legal hold was not enabled' },
    },
  },
  async (c) => {
    const { tid, uid } = c.req.valid('param');
    const { db } = deps(c);
    await requireLegalholdAdmin(deps(c), self(c).user, tid, 'ChangeLegalHoldUserSettings');
    const status = await legalholdStore.status(db, tid, uid);
    if (status !== 'enabled' && status !== 'pending') return c.body(null, 204);
    await requireReauth(deps(c), self(c).user, passwordOf(c.req.valid('json')));
    const service = await legalholdStore.service(db, tid);
    await endLegalhold(deps(c), { team: tid, user: uid, service });
    return c.body(null, 200);
  },
);

export const legalholdUserEndpoints: Endpoint[] = [getStatus, consent, request, approve, disable];
