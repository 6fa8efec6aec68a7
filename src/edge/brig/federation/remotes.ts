import { z } from '@hono/zod-openapi';
import type { Config } from '../../../shared/config/index.js';
import { endpoint } from '../../api/endpoint.js';
import { json } from '../../api/schemas/common.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { database } from '../../db/client.js';
import { federationDomainConfig, federationDomainConfigs, type FederationDomainConfig } from './remote-config.js';
import { queueDefederation } from '../../federation/outbox.js';
import { federationWith, knownRemotes } from './federating.js';
import { remotesStore } from './remotes-store.js';
import { connectionRemovedNotifications } from '../../galley/face.js';

/** A remote in the static list may be added to the dynamic one only with the same settings. */
function refuseDiverging(config: Config, remote: FederationDomainConfig): void {
  const listed = config.brig.optSettings.setFederationDomainConfigs.find((r) => r.domain === remote.domain);
  const same = listed?.search_policy === remote.search_policy && remote.restriction.tag === 'allow_all';
  if (listed && !same) throw new ApiError(brigErrors.federationRemoteDivergingConfig);
}

export const getFederationRemotes = endpoint(
  {
    name: 'get-federation-remotes',
    method: 'get',
    path: '/i/federation/remotes',
    responses: { 200: { description: 'Strategy and remote backends', ...json(federationDomainConfigs) } },
  },
  async (c) => {
    const config = c.get('config');
    return c.json(
      {
        strategy: config.brig.optSettings.setFederationStrategy,
        remotes: await knownRemotes(config, database(c.env.DB)),
        update_interval: config.brig.optSettings.setFederationDomainConfigsUpdateFreq,
      },
      200,
    );
  },
);

export const addFederationRemote = endpoint(
  {
    name: 'add-federation-remotes',
    method: 'post',
    path: '/i/federation/remotes',
    request: { body: { required: true, ...json(federationDomainConfig) } },
    errors: [brigErrors.federationRemoteDivergingConfig],
    responses: { 200: { description: 'Added (or replaced)' } },
  },
  async (c) => {
    const remote = c.req.valid('json');
    refuseDiverging(c.get('config'), remote);
    await remotesStore.upsert(database(c.env.DB), remote);
    return c.body(null, 200);
  },
);

export const updateFederationRemote = endpoint(
  {
    name: 'update-federation-remotes',
    method: 'put',
    path: '/i/federation/remotes/{domain}',
    request: {
      params: z.object({ domain: z.string() }),
      body: { required: true, ...json(federationDomainConfig) },
    },
    errors: [
      brigErrors.federationDomainMismatch,
      brigErrors.federationRemoteDivergingConfig,
      brigErrors.federationRemoteNotFound,
    ],
    responses: { 200: { description: 'Updated' } },
  },
  async (c) => {
    const remote = c.req.valid('json');
    if (remote.domain !== c.req.valid('param').domain) throw new ApiError(brigErrors.federationDomainMismatch);
    refuseDiverging(c.get('config'), remote);
    if (!(await remotesStore.update(database(c.env.DB), remote)))
      throw new ApiError(brigErrors.federationRemoteNotFound);
    return c.body(null, 200);
  },
);

export const deleteFederationRemote = endpoint(
  {
    name: 'delete-federation-remotes',
    method: 'delete',
    path: '/i/federation/remotes/{domain}',
    description:
      'Removes a remote from the dynamic list. When this backend then no longer federates with it, the ' +
      'background worker cleans up what they shared (federation.delete) and the other remotes are told.',
    request: { params: z.object({ domain: z.string() }) },
    errors: [brigErrors.federationRemoteInConfig],
    responses: { 200: { description: 'Removed (or was not listed)' } },
  },
  async (c) => {
    const { domain } = c.req.valid('param');
    const config = c.get('config');
    const db = database(c.env.DB);
    const removed = await remotesStore.remove(db, domain);
    // wire's order: the dynamic entry goes even when the static list keeps the remote allowed.
    if (config.brig.optSettings.setFederationDomainConfigs.some((r) => r.domain === domain))
      throw new ApiError(brigErrors.federationRemoteInConfig);
    if (removed && (await federationWith(config, db, domain)) === undefined) {
      const others = (await knownRemotes(config, db)).map((r) => r.domain);
      await queueDefederation(c.env, db, domain, connectionRemovedNotifications(domain, others));
    }
    return c.body(null, 200);
  },
);
