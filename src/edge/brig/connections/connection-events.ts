import { z } from 'zod';
import { registerEvent } from '../../events/registry.js';
import { connectionJson } from './connection-json.js';
import type { ConnectionRow } from './connection-book.js';

registerEvent(
  'user.connection',
  z.object({
    type: z.literal('user.connection'),
    connection: z.record(z.string(), z.unknown()),
    user: z.object({ name: z.string() }).optional(),
  }),
);

/** `user.connection`, sent to the row's owner; `name` is the other user's, when they acted. */
export const connectionEvent = (row: ConnectionRow, name?: string) => ({
  type: 'user.connection' as const,
  connection: connectionJson(row),
  ...(name === undefined ? {} : { user: { name } }),
});
