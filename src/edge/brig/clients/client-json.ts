import { z } from '@hono/zod-openapi';
import type { ApiVersion } from '../../../shared/api-version.js';
import type { ClientRow } from './client-store.js';

export const CONSUMABLE_NOTIFICATIONS = 'consumable-notifications';
export const LEGALHOLD_CONSENT = 'legalhold-implicit-consent';

/** The ids of the clients that consume no notification queue (legacy clients), but those in `except`. */
export const legacyClientIds = (clients: readonly ClientRow[], except: readonly string[]): string[] =>
  clients.filter((c) => !except.includes(c.id) && !c.capabilities.includes(CONSUMABLE_NOTIFICATIONS)).map((c) => c.id);

/** Capabilities a request may name; the seed's `consume-notifications` is read as Wire's `consumable-notifications`. */
export const clientCapability = z
  .enum([LEGALHOLD_CONSENT, CONSUMABLE_NOTIFICATIONS, 'consume-notifications'])
  .transform((c) => (c === 'consume-notifications' ? CONSUMABLE_NOTIFICATIONS : c))
  .openapi('ClientCapability');

export const clientType = z.enum(['permanent', 'temporary', 'legalhold']).openapi('ClientType');
export const clientClass = z.enum(['phone', 'tablet', 'desktop', 'legalhold']).openapi('ClientClass');
export const mlsPublicKeys = z.record(z.string(), z.string()).openapi('MLSPublicKeys');

export const clientJson = z
  .object({
    id: z.string(),
    type: clientType,
    time: z.string(),
    class: clientClass.optional(),
    label: z.string().optional(),
    cookie: z.string().optional(),
    model: z.string().optional(),
    capabilities: z.union([z.array(z.string()), z.object({ capabilities: z.array(z.string()) })]),
    mls_public_keys: mlsPublicKeys,
    last_active: z.string().optional(),
  })
  .openapi('Client');
export type ClientJson = z.infer<typeof clientJson>;

export const pubClient = z.object({ id: z.string(), class: clientClass.optional() }).openapi('PubClient');

/** UTCTime without fractional seconds when there are none, as brig prints `last_active`. */
const utcTime = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * A client's capabilities as version `v` shows them: `{"capabilities": [...]}` before v7 and a flat
 * list from v7; `consumable-notifications` is shown from v8 only.
 */
export function capabilitiesFor(
  r: Pick<ClientRow, 'capabilities'>,
  v: ApiVersion,
): string[] | { capabilities: string[] } {
  const caps = v >= 8 ? r.capabilities : r.capabilities.filter((c) => c !== CONSUMABLE_NOTIFICATIONS);
  return v >= 7 ? caps : { capabilities: caps };
}

/** A client as version `v` shows it. */
export function clientJsonFor(r: ClientRow, v: ApiVersion): ClientJson {
  return {
    id: r.id,
    type: r.type,
    time: new Date(r.createdAt).toISOString(),
    ...(r.class === null ? {} : { class: r.class }),
    ...(r.label === null ? {} : { label: r.label }),
    ...(r.cookie === null ? {} : { cookie: r.cookie }),
    ...(r.model === null ? {} : { model: r.model }),
    capabilities: capabilitiesFor(r, v),
    mls_public_keys: r.mlsPublicKeys,
    ...(r.lastActive === null ? {} : { last_active: utcTime(r.lastActive) }),
  };
}

export const pubClientJson = (r: Pick<ClientRow, 'id' | 'class'>) => ({
  id: r.id,
  ...(r.class === null ? {} : { class: r.class }),
});
