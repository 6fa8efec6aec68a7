import { expect } from 'vitest';
import { proteusKeys } from './prekeys.js';
import type { TestUser } from './users.js';
import { postClient } from './endpoints/brig.js';
import { getNotifications } from './endpoints/gundeck.js';

/** Registers a permanent client with real prekeys (the password once the user has a client). */
export async function addClient(
  base: string,
  u: TestUser,
  o: { password?: string; capabilities?: string[] } = {},
): Promise<string> {
  const r = await postClient(base, u.token, { type: 'permanent', ...(await proteusKeys(1)), ...o });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

/** The `conversation.otr-message-add` events in a client's notification stream. */
export const otrEventsOf = async (base: string, u: TestUser, client: string) =>
  (await getNotifications(base, u.token, { client })).body.notifications
    .map((n: any) => n.payload[0])
    .filter((e: any) => e.type === 'conversation.otr-message-add');
