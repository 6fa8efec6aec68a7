import { z } from '@hono/zod-openapi';
import { endpoint } from '../api/endpoint.js';
import { ApiError } from '../api/errors/api-error.js';
import { cargoholdErrors } from '../api/errors/cargohold.js';

// The v0/v1 downloads of assets stored before the v3 API (plain and conversation-scoped keys,
// asset ids rather than asset keys). Wire's cargohold looks those up in their own key layout; this
// backend has only ever stored v3 assets, so there is never such an asset to redirect to.

const legacyRoute = {
  method: 'get',
  until: 2,
  errors: [cargoholdErrors.assetNotFound],
  responses: { 302: { description: 'Redirect to the asset (never: no pre-v3 asset is stored here)' } },
} as const;

const notStored = (): never => {
  throw new ApiError(cargoholdErrors.assetNotFound);
};

export const legacyDownload = endpoint(
  {
    name: 'assets-download-legacy',
    path: '/assets/{id}',
    request: { params: z.object({ id: z.uuid() }), query: z.object({ conv_id: z.uuid() }) },
    ...legacyRoute,
  },
  notStored,
);

export const legacyConversationDownload = endpoint(
  {
    name: 'assets-conv-download-legacy',
    path: '/conversations/{cnv}/assets/{id}',
    request: { params: z.object({ cnv: z.uuid(), id: z.uuid() }) },
    ...legacyRoute,
  },
  notStored,
);

export const legacyOtrDownload = endpoint(
  {
    name: 'assets-conv-otr-download-legacy',
    path: '/conversations/{cnv}/otr/assets/{id}',
    request: { params: z.object({ cnv: z.uuid(), id: z.uuid() }) },
    ...legacyRoute,
  },
  notStored,
);
