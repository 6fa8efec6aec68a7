import { z } from '@hono/zod-openapi';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { pinnableKey } from '../../../shared/integrations/fingerprint.js';
import { requireReauth } from '../teams/reauth.js';
import { requireTeamMember } from '../teams/team-access.js';
import { requireLegalholdAdmin } from './member-access.js';
import { endTeamLegalhold } from './end-legalhold.js';
import { legalholdStore, type LegalholdService } from './legalhold-store.js';
import { checkServiceStatus } from './service-client.js';
import { legalholdEnabledForTeam, requireLegalholdEnabled } from './team-legalhold.js';
import { database } from '../../db/client.js';
import { deps } from '../../api/deps.js';
import { self } from '../../api/self.js';

const params = { params: z.object({ tid: z.uuid() }) };
const password = z.string().min(6).max(1024).optional();

const newService = z
  .object({
    base_url: z.url({ protocol: /^https$/ }).openapi('HttpsUrl'),
    public_key: z.string().openapi('ServiceKeyPEM'),
    auth_token: z
      .string()
      .regex(/^[A-Za-z0-9_-]+=*$/)
      .openapi('ASCII'),
  })
  .openapi('NewLegalHoldService');

const serviceView = z
  .object({
    status: z.enum(['configured', 'not_configured', 'disabled']).openapi('LHServiceStatus'),
    settings: z
      .object({
        team_id: z.uuid(),
        base_url: z.string(),
        fingerprint: z.string(),
        auth_token: z.string(),
        public_key: z.string(),
      })
      .optional(),
  })
  .openapi('ViewLegalHoldService');

const view = (s: LegalholdService) => ({
  status: 'configured' as const,
  settings: {
    team_id: s.team,
    base_url: s.baseUrl,
    fingerprint: s.fingerprint,
    auth_token: s.authToken,
    public_key: s.publicKey,
  },
});

/** An RSA key of at least 2048 bits, as wire takes a service's key; its fingerprint. */
async function fingerprintOf(pem: string): Promise<string> {
  const key = await pinnableKey(pem);
  if (key === undefined) throw new ApiError(legalholdErrors.invalidKey);
  return key.fingerprint;
}

const createSettings = endpoint(
  {
    name: 'create-legal-hold-settings',
    method: 'post',
    path: '/teams/{tid}/legalhold/settings',
    request: { ...params, ...jsonBody(newService) },
    errors: [
      legalholdErrors.notEnabledForTeam,
      galleyErrors.noTeamMember,
      galleyErrors.operationDenied,
      legalholdErrors.invalidKey,
      legalholdErrors.unavailable,
    ],
    responses: { 201: { description: 'Legal hold service settings created', ...json(serviceView) } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const body = c.req.valid('json');
    const config = c.get('config');
    await requireLegalholdEnabled(database(c.env.DB), config, tid);
    const { db } = deps(c);
    await requireLegalholdAdmin(deps(c), self(c).user, tid, 'ChangeLegalHoldTeamSettings');
    const fingerprint = await fingerprintOf(body.public_key);
    await checkServiceStatus(config, { baseUrl: body.base_url, fingerprint });
    const row = {
      team: tid,
      baseUrl: body.base_url,
      fingerprint,
      authToken: body.auth_token,
      publicKey: body.public_key,
    };
    await legalholdStore.saveService(db, row).run();
    return c.json(view(row), 201);
  },
);

const getSettings = endpoint(
  {
    name: 'get-legal-hold-settings',
    method: 'get',
    path: '/teams/{tid}/legalhold/settings',
    request: params,
    errors: [galleyErrors.noTeamMember],
    responses: { 200: { description: "The team's legal hold service", ...json(serviceView) } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { db } = deps(c);
    await requireTeamMember(deps(c), self(c).user, tid);
    if (!(await legalholdEnabledForTeam(db, c.get('config'), tid))) return c.json({ status: 'disabled' as const }, 200);
    const service = await legalholdStore.service(db, tid);
    return c.json(service === undefined ? { status: 'not_configured' as const } : view(service), 200);
  },
);

/** Removing the service ends legal hold for every member under it, then forgets the service. */
const deleteSettings = endpoint(
  {
    name: 'delete-legal-hold-settings',
    method: 'delete',
    path: '/teams/{tid}/legalhold/settings',
    request: {
      ...params,
      ...jsonBody(z.object({ password }).openapi('RemoveLegalHoldSettingsRequest')),
    },
    errors: [
      legalholdErrors.notEnabledForTeam,
      galleyErrors.noTeamMember,
      galleyErrors.operationDenied,
      galleyErrors.reauthRequired,
      legalholdErrors.unavailable,
    ],
    responses: { 204: { description: 'Legal hold service settings deleted' } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const config = c.get('config');
    await requireLegalholdEnabled(database(c.env.DB), config, tid);
    const { db } = deps(c);
    await requireLegalholdAdmin(deps(c), self(c).user, tid, 'ChangeLegalHoldTeamSettings');
    await requireReauth(deps(c), self(c).user, c.req.valid('json').password);
    await endTeamLegalhold(deps(c), tid);
    await legalholdStore.deleteService(db, tid).run();
    return c.body(null, 204);
  },
);

export const legalholdSettingsEndpoints: Endpoint[] = [createSettings, getSettings, deleteSettings];
