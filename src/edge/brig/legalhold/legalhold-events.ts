import { z } from 'zod';
import { registerEvent } from '../../events/registry.js';

const prekey = z.object({ id: z.int(), key: z.string() });
const schemas = {
  'user.legalhold-request': z.object({
    type: z.literal('user.legalhold-request'),
    id: z.uuid(),
    last_prekey: prekey,
    client: z.object({ id: z.string() }),
  }),
  'user.legalhold-enable': z.object({ type: z.literal('user.legalhold-enable'), id: z.uuid() }),
  'user.legalhold-disable': z.object({ type: z.literal('user.legalhold-disable'), id: z.uuid() }),
} as const;
for (const [type, schema] of Object.entries(schemas)) registerEvent(type, schema);

/** What a user's contacts hear of their legal hold (no `data` wrapper, as wire's user events). */
export const legalholdEvents = {
  request: (user: string, lastPrekey: { id: number; key: string }, client: string) => ({
    type: 'user.legalhold-request' as const,
    id: user,
    last_prekey: lastPrekey,
    client: { id: client },
  }),
  enable: (user: string) => ({ type: 'user.legalhold-enable' as const, id: user }),
  disable: (user: string) => ({ type: 'user.legalhold-disable' as const, id: user }),
};
