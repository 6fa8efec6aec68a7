import { describe, expect, it } from 'vitest';
import { proteusKeys } from '../helpers/prekeys.js';
import { as, expectStatus, ownBackend, randomUser, type User } from './lib/identity-users.js';

const own = ownBackend();
const ALL = ['legalhold-implicit-consent', 'consumable-notifications'];

const addClient = async (u: User, extra: Record<string, unknown> = {}) =>
  as(u).post('/clients', { type: 'permanent', ...(await proteusKeys(1)), ...extra });

describe('Client', () => {
  it('Client.testClientLastActive', async () => {
    const alice = await randomUser(own);
    const c0 = await addClient(alice);
    expectStatus(c0, 201);
    expect(c0.body.last_active ?? null).toBeNull();
    const now = Math.floor(Date.now() / 1000);
    await as(alice).get(`/notifications?client=${c0.body.id}`);
    const c1 = await as(alice).get(`/clients/${c0.body.id}`);
    expectStatus(c1, 200);
    expect(c1.body.last_active).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(c1.body.last_active) / 1000).toBeGreaterThanOrEqual(now);
  });

  it('Client.testCreateClientWithCapabilities', async () => {
    const alice = await randomUser(own);
    const r = await addClient(alice, { capabilities: ALL });
    expectStatus(r, 201);
    expect(new Set(r.body.capabilities)).toEqual(new Set(ALL));
    const clients = await as(alice).get('/clients');
    expectStatus(clients, 200);
    expect(new Set(clients.body[0].capabilities)).toEqual(new Set(ALL));
  });

  it('Client.testUpdateClientWithConsumableNotificationsCapability', async () => {
    const alice = await randomUser(own);
    const r = await addClient(alice);
    expectStatus(r, 201);
    expectStatus(await as(alice).put(`/clients/${r.body.id}`, { capabilities: ['consumable-notifications'] }), 200);
    const clients = await as(alice).get('/clients');
    expectStatus(clients, 200);
    expect(clients.body[0].capabilities).toEqual(['consumable-notifications']);
  });

  it('Client.testGetClientCapabilitiesV7', async () => {
    const alice = await randomUser(own);
    const r = await addClient(alice, { capabilities: ALL });
    expectStatus(r, 201);
    expect(new Set(r.body.capabilities)).toEqual(new Set(ALL));
    expect(new Set((await as(alice).get('/clients')).body[0].capabilities)).toEqual(new Set(ALL));
    const v7 = await as(alice, 7).get('/clients');
    expectStatus(v7, 200);
    expect(v7.body[0].capabilities).toEqual(['legalhold-implicit-consent']);
    const v6 = await as(alice, 6).get('/clients');
    expectStatus(v6, 200);
    expect(v6.body[0].capabilities.capabilities).toEqual(['legalhold-implicit-consent']);
  });
});
