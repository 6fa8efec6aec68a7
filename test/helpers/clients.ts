import { expect } from 'vitest';
import { proteusKeys } from './prekeys.js';
import { api, type TestUser } from './users.js';

/** Registers a permanent client with real prekeys (the password once the user has a client). */
export async function addClient(
  base: string,
  u: TestUser,
  o: { password?: string; capabilities?: string[] } = {},
): Promise<string> {
  const r = await api(base, u.token).post('/v8/clients', { type: 'permanent', ...(await proteusKeys(1)), ...o });
  expect(r.status, r.text).toBe(201);
  return r.body.id;
}

/** The `conversation.otr-message-add` events in a client's notification stream. */
export const otrEventsOf = async (base: string, u: TestUser, client: string) =>
  (await api(base, u.token).get(`/v8/notifications?client=${client}`)).body.notifications
    .map((n: any) => n.payload[0])
    .filter((e: any) => e.type === 'conversation.otr-message-add');
