import { z } from 'zod';

/**
 * Every event payload the backend emits, by event type (`conversation.create`, `user.update`, ...).
 * Components register their event schemas here as they add events; the documentation at
 * `/api/event-notification-schemas` is generated from this table.
 */
const eventSchemas = new Map<string, z.ZodType>();

export function registerEvent(type: string, schema: z.ZodType): void {
  if (eventSchemas.has(type)) throw new Error(`event type ${type} registered twice`);
  eventSchemas.set(type, schema);
}

export function eventNotificationSchemas(): Record<string, unknown> {
  return Object.fromEntries([...eventSchemas].map(([type, schema]) => [type, z.toJSONSchema(schema)]));
}
