import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../api/app-env.js';
import { endpoint, type Endpoint } from '../../api/endpoint.js';
import { requireMember } from '../conversations/access-check.js';
import type { ErrorSpec } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { json, jsonBody } from '../../api/schemas/common.js';
import { selfQualified, self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { requireFeatureAdmin, requireTeamMember } from '../teams/team-access.js';
import { changeFeature } from './change.js';
import { FEATURE_NAMES, featureDef, type FeatureName } from './registry.js';
import { allFeatures, featureChange, lockableFeature, teamParam } from './schemas.js';
import { allTeamFeatures, personalConferenceCalling, serverFeatures, teamFeature } from './team-features.js';
import { deps } from '../../api/deps.js';

/** What changing a feature may meet beyond the common refusals (see rules.ts). */
const CHANGE_ERRORS: Partial<Record<FeatureName, readonly ErrorSpec[]>> = {
  legalhold: [galleyErrors.legalholdNotEnabled, legalholdErrors.tooLargeTeam, legalholdErrors.unavailable],
  sso: [galleyErrors.ssoDisableNotImplemented],
};

/** The caller's team's features, or the server's for personal users. */
async function featuresOfCaller(c: Context<AppEnv>) {
  const db = database(c.env.DB);
  const config = c.get('config');
  const me = await deps(c).users.account(selfQualified(c));
  if (me?.team) return allTeamFeatures(db, config, me.team);
  // Personal users: the server's features, conference calling from their own record (brig's defaults).
  const server = serverFeatures(config);
  const status = personalConferenceCalling(config, { conferenceCalling: me?.conferenceCalling ?? null });
  return { ...server, conferenceCalling: { ...server.conferenceCalling, status } };
}

/** `GET /feature-configs`: the caller's team's features, or the server's for personal users. */
const getFeatureConfigs = endpoint(
  {
    name: 'get-all-feature-configs-for-user',
    method: 'get',
    path: '/feature-configs',
    responses: { 200: { description: 'All feature configs', ...json(allFeatures) } },
  },
  async (c) => c.json(await featuresOfCaller(c), 200),
);

/** `GET /feature-configs/{name}` (until v2): one of them. */
function getFeatureConfig(name: FeatureName): Endpoint {
  return endpoint(
    {
      name: `get-config-${name}`,
      method: 'get',
      path: `/feature-configs/${name}`,
      until: 2,
      responses: { 200: { description: `The caller's ${name} feature`, ...json(lockableFeature) } },
    },
    async (c) => c.json((await featuresOfCaller(c))[name], 200),
  );
}

/** The features `GET /feature-configs/{name}` named until v2. */
const CONFIG_BY_NAME: readonly FeatureName[] = [
  'legalhold',
  'sso',
  'searchVisibility',
  'validateSAMLemails',
  'digitalSignatures',
  'appLock',
  'fileSharing',
  'classifiedDomains',
  'conferenceCalling',
  'selfDeletingMessages',
  'conversationGuestLinks',
  'sndFactorPasswordChallenge',
  'mls',
];

/** Until v2 a few features had another name in team paths as well. */
const DEPRECATED_NAMES: ReadonlyArray<{ name: FeatureName; as: string; put: boolean }> = [
  { name: 'searchVisibility', as: 'search-visibility', put: true },
  { name: 'validateSAMLemails', as: 'validate-saml-emails', put: false },
  { name: 'digitalSignatures', as: 'digital-signatures', put: false },
];

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
    const { db } = deps(c);
    await requireTeamMember(deps(c), self(c).user, tid);
    return c.json(await allTeamFeatures(db, c.get('config'), tid), 200);
  },
);

/** A team's feature; `as` names it by an older name, until v2. */
function getOne(name: FeatureName, as?: string): Endpoint {
  return endpoint(
    {
      name: as === undefined ? `get-feature-${name}` : `get-feature-${as}`,
      method: 'get',
      path: `/teams/{tid}/features/${as ?? name}`,
      ...(as === undefined ? {} : { until: 2 as const }),
      request: { params: teamParam },
      errors: [galleyErrors.noTeamMember],
      responses: { 200: { description: `The team's ${name} feature`, ...json(lockableFeature) } },
    },
    async (c) => {
      const { tid } = c.req.valid('param');
      const { db } = deps(c);
      await requireTeamMember(deps(c), self(c).user, tid);
      return c.json(await teamFeature(db, c.get('config'), tid, name), 200);
    },
  );
}

/**
 * `PUT /teams/{tid}/features/{name}`; `as` names it by an older name (until v2), `range` gives a
 * version range of its own (mlsE2EId's CRL proxy is required from v6 on, as wire's API has it).
 */
function putOne(name: FeatureName, o: { as?: string; range?: { from?: 6; until?: 6 } } = {}): Endpoint {
  const { as, range = {} } = o;
  const crlProxyRequired = range.until === undefined;
  return endpoint(
    {
      name: as === undefined ? `put-feature-${name}` : `put-feature-${as}`,
      ...range,
      method: 'put',
      path: `/teams/{tid}/features/${as ?? name}`,
      ...(as === undefined ? {} : { until: 2 as const }),
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
      const { db } = deps(c);
      await requireFeatureAdmin(deps(c), self(c).user, tid);
      const now = await changeFeature(
        c,
        db,
        tid,
        name,
        { status: body.status, config: body.config },
        { respectLock: true, requireConfig: true, viaTeamApi: crlProxyRequired },
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
      deps(c),
      { id: c.req.valid('param').cnv, domain: selfQualified(c).domain },
      selfQualified(c),
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
  ...CONFIG_BY_NAME.map(getFeatureConfig),
  ...FEATURE_NAMES.map((n) => getOne(n)),
  ...FEATURE_NAMES.filter((n) => featureDef(n).teamSettable && n !== 'mlsE2EId').map((n) => putOne(n)),
  putOne('mlsE2EId', { range: { until: 6 } }),
  putOne('mlsE2EId', { range: { from: 6 } }),
  ...DEPRECATED_NAMES.map((d) => getOne(d.name, d.as)),
  ...DEPRECATED_NAMES.filter((d) => d.put).map((d) => putOne(d.name, { as: d.as })),
];
