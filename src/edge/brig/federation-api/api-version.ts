import { z } from '@hono/zod-openapi';
import { FEDERATION_API_VERSIONS } from '../../../shared/federation/versions.js';
import { endpoint } from '../../api/endpoint.js';
import { json } from '../../api/schemas/common.js';

const versionInfo = z.object({ versions: z.array(z.int()) }).openapi('FederationVersionInfo');

/** Federation RPC `brig/api-version`: the federation API versions a remote may use with us. */
export const federationApiVersion = endpoint(
  {
    name: 'federation-brig-api-version',
    auth: 'none',
    method: 'post',
    path: '/federation/brig/api-version',
    responses: { 200: { description: 'The supported federation API versions', ...json(versionInfo) } },
  },
  (c) => c.json({ versions: [...FEDERATION_API_VERSIONS] }, 200),
);
