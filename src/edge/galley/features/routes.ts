import { z } from '@hono/zod-openapi';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { requireMember } from '../conversations/access-check.js';
import type { ErrorSpec } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { selfQualified } from '../../api/self.js';
import { database } from '../../db/client.js';
import { userById } from '../../brig/face.js';
import { requireFeatureAdmin, requireTeamMember } from '../teams/team-access.js';
import { changeFeature } from './change.js';
import { FEATURE_NAMES, featureDef, type FeatureName } from './registry.js';
import { allFeatures, featureChange, lockableFeature, teamParam } from './schemas.js';
import { allTeamFeatures, personalConferenceCalling, serverFeatures, teamFeature } from './team-features.js';

/** What changing a feature may meet beyond the common refusals (see rules.ts). */
const CHANGE_ERRORS: Partial<Record<FeatureName, readonly ErrorSpec[]>> = {
  legalhold: [galleyErrors.legalholdNotEnabled, legalholdErrors.tooLargeTeam, legalholdErrors.unavailable],
  sso: [galleyErrors.ssoDisableNotImplemented],
};

/** `GET /feature-configs`: the caller's team's features, or the server's for personal users. */
const getFeatureConfigs = endpoint(
  {
    name: 'get-all-feature-configs-for-user',
    method: 'get',
    path: '/feature-configs',
    responses: { 200: { description: 'All feature configs', ...json(allFeatures) } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const config = c.get('config');
    const me = await userById(db, selfQualified(c));
    if (me?.team) return c.json(await allTeamFeatures(db, config, me.team), 200);
    // Personal users: the server's features, conference calling from their own record (brig's defaults).
    const server = serverFeatures(config);
    const status = personalConferenceCalling(config, { conferenceCalling: me?.conferenceCalling ?? null });
    return c.json({ ...server, conferenceCalling: { ...server.conferenceCalling, status } }, 200);
  },
);

const getTeamFeatures = endpoint(
  {
    name: 'get-all-feature-configs-for-team',
    method: 'get',
    path: '/teams/{tid}/features',
    request: { params: teamParam },
    errors: [galleyErrors.noTeamMember],
    responses: { 200: { description: 'All feature configs of the team', ...json(allFeatures) } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const { db } = await requireTeamMember(c, tid);
    return c.json(await allTeamFeatures(db, c.get('config'), tid), 200);
  },
);

function getOne(name: FeatureName): Endpoint {
  return endpoint(
    {
      name: `get-feature-${name}`,
      method: 'get',
      path: `/teams/{tid}/features/${name}`,
      request: { params: teamParam },
      errors: [galleyErrors.noTeamMember],
      responses: { 200: { description: `The team's ${name} feature`, ...json(lockableFeature) } },
    },
    async (c) => {
      const { tid } = c.req.valid('param');
      const { db } = await requireTeamMember(c, tid);
      return c.json(await teamFeature(db, c.get('config'), tid, name), 200);
    },
  );
}

function putOne(name: FeatureName): Endpoint {
  return endpoint(
    {
      name: `put-feature-${name}`,
      method: 'put',
      path: `/teams/{tid}/features/${name}`,
      request: { params: teamParam, ...jsonBody(featureChange) },
      errors: [
        galleyErrors.noTeamMember,
        galleyErrors.operationDenied,
        galleyErrors.featureLocked,
        ...(CHANGE_ERRORS[name] ?? []),
      ],
      responses: { 200: { description: `The team's ${name} feature, changed`, ...json(lockableFeature) } },
    },
    async (c) => {
      const { tid } = c.req.valid('param');
      const body = c.req.valid('json');
      const db = await requireFeatureAdmin(c, tid);
      const now = await changeFeature(
        c,
        db,
        tid,
        name,
        { status: body.status, config: body.config },
        { respectLock: true, requireConfig: true },
      );
      return c.json(now, 200);
    },
  );
}

/**
 * `GET /conversations/{cnv}/features/conversationGuestLinks`: whether guest links work in this
 * conversation: its team's value, or the server's for conversations without a team. Members only.
 */
const getConversationGuestLinks = endpoint(
  {
    name: 'get-conversation-guest-links-status',
    method: 'get',
    path: '/conversations/{cnv}/features/conversationGuestLinks',
    request: { params: z.object({ cnv: z.uuid() }) },
    errors: [galleyErrors.noConversation, galleyErrors.accessDenied],
    responses: { 200: { description: 'The guest links feature of the conversation', ...json(lockableFeature) } },
  },
  async (c) => {
    const { conv } = await requireMember(
      c,
      { id: c.req.valid('param').cnv, domain: selfQualified(c).domain },
      galleyErrors.accessDenied,
    );
    const config = c.get('config');
    const db = database(c.env.DB);
    return c.json(
      conv.team === null
        ? serverFeatures(config).conversationGuestLinks
        : await teamFeature(db, config, conv.team, 'conversationGuestLinks'),
      200,
    );
  },
);

export const featureEndpoints: Endpoint[] = [
  getConversationGuestLinks,
  getFeatureConfigs,
  getTeamFeatures,
  ...FEATURE_NAMES.map(getOne),
  ...FEATURE_NAMES.filter((n) => featureDef(n).teamSettable).map(putOne),
];
