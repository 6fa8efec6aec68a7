import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { json } from '../../api/schemas/common.js';
import { self } from '../../api/self.js';
import { database } from '../../db/client.js';
import { CLIENT_ID_PATTERN } from '../../../shared/client-id.js';
import { capabilitiesFor, LEGALHOLD_CONSENT } from './client-json.js';
import { clientStore } from './client-store.js';

const capabilityList = z.array(z.string().openapi({ example: LEGALHOLD_CONSENT })).openapi('ClientCapabilityList');
const shapes = {
  6: z.object({ capabilities: capabilityList }).openapi('ClientCapabilityListV6'),
  7: capabilityList,
  8: capabilityList,
};

/**
 * `GET /clients/{client}/capabilities`: what one of the caller's own clients said about itself,
 * in each version's shape (see `capabilitiesFor`).
 */
const capabilitiesRoute = (shape: 6 | 7 | 8) =>
  endpoint(
    {
      name: shape === 8 ? 'get-client-capabilities' : `get-client-capabilities@v${shape}`,
      method: 'get',
      path: '/clients/{client}/capabilities',
      ...(shape === 6
        ? { until: 7 as const }
        : shape === 7
          ? { from: 7 as const, until: 8 as const }
          : { from: 8 as const }),
      request: { params: z.object({ client: z.string().regex(CLIENT_ID_PATTERN) }) },
      errors: [brigErrors.clientNotFound],
      responses: { 200: { description: 'The client’s capabilities', ...json(shapes[shape]) } },
    },
    async (c) => {
      const row = await clientStore.get(database(c.env.DB), self(c).user, c.req.valid('param').client);
      if (row === undefined) throw new ApiError(brigErrors.clientNotFound);
      return c.json(capabilitiesFor(row, c.get('apiVersion') ?? 0), 200);
    },
  );

export const getClientCapabilitiesV6 = capabilitiesRoute(6);
export const getClientCapabilitiesV7 = capabilitiesRoute(7);
export const getClientCapabilities = capabilitiesRoute(8);
