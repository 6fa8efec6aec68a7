import { z } from 'zod';
import { registerEvent } from './registry.js';
import { eventTime } from './conversation-events.js';

/** `team.*` events: `{type, team, time, data}`. */
const permissions = z.object({ self: z.int(), copy: z.int() });
const dataSchemas = {
  'team.create': z.object({
    id: z.string(),
    creator: z.string(),
    name: z.string(),
    icon: z.string(),
    icon_key: z.string().optional(),
    binding: z.literal(true),
  }),
  'team.update': z.object({
    name: z.string().optional(),
    icon: z.string().optional(),
    icon_key: z.string().optional(),
    splash_screen: z.string().optional(),
  }),
  'team.delete': z.null(),
  'team.member-join': z.object({ user: z.string() }),
  'team.member-leave': z.object({ user: z.string() }),
  'team.member-update': z.object({ user: z.string(), permissions: permissions.optional() }),
} as const;

type TeamEventType = keyof typeof dataSchemas;
for (const [type, data] of Object.entries(dataSchemas))
  registerEvent(type, z.object({ type: z.literal(type), team: z.string(), time: z.string(), data }));

export function teamEvent<T extends TeamEventType>(type: T, team: string, data: z.infer<(typeof dataSchemas)[T]>) {
  return { type, team, time: eventTime(), data };
}
