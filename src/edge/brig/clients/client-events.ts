import { z } from 'zod';
import { registerEvent } from '../../events/registry.js';
import { clientJsonFor } from './client-json.js';
import type { ClientRow } from './client-store.js';

const schemas = {
  'user.client-add': z.object({ type: z.literal('user.client-add'), client: z.record(z.string(), z.unknown()) }),
  'user.client-remove': z.object({ type: z.literal('user.client-remove'), client: z.object({ id: z.string() }) }),
} as const;
for (const [type, schema] of Object.entries(schemas)) registerEvent(type, schema);

/** Client events; event payloads are not versioned, so the client keeps its v6 shape. */
export const clientEvents = {
  add: (client: ClientRow) => ({ type: 'user.client-add' as const, client: clientJsonFor(client, 6) }),
  remove: (id: string) => ({ type: 'user.client-remove' as const, client: { id } }),
};
