import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend } from '../../helpers/backend.js';
import type { Edit } from '../../helpers/config-files.js';
import { A, B, startFederatedPair, type FederatedPair } from '../../helpers/federation.js';
import { wireError } from '../../helpers/http.js';
import { api, createUser, type TestUser } from '../../helpers/users.js';
import { getUser, listUsers, putSelfHandle, searchContacts } from '../../helpers/endpoints/brig.js';

const handleOf = (prefix: string) => `${prefix}${crypto.randomUUID().slice(0, 8)}`;

async function withHandle(pub: string, internal: string, name: string): Promise<TestUser & { handle: string }> {
  const u = await createUser(pub, internal, { name });
  const handle = handleOf(name.toLowerCase());
  expect((await putSelfHandle(pub, u.token, { handle })).status).toBe(200);
  return { ...u, handle };
}

/** Two backends: users of one find users of the other, as far as the other's search policy allows. */
describe('federation: users across two backends', () => {
  let pair: FederatedPair;
  let alice: TestUser & { handle: string };
  let bob: TestUser & { handle: string };

  beforeAll(async () => {
    // b.example.com keeps its remotes in the database, so the test can change its search policy.
    pair = await startFederatedPair({
      b: [
        ['brig.yaml', ['optSettings', 'setFederationStrategy'], 'allowDynamic'],
        ['brig.yaml', ['optSettings', 'setFederationDomainConfigs'], []],
        ['brig.yaml', ['optSettings', 'setFederationDomainConfigsUpdateFreq'], 1],
      ],
    });
    const policy = await api(pair.b.internalUrl).post('/i/federation/remotes', {
      domain: A,
      search_policy: 'full_search',
    });
    expect(policy.status).toBe(200);
    [alice, bob] = await Promise.all([
      withHandle(pair.a.publicUrl, pair.a.internalUrl, 'Alice'),
      withHandle(pair.b.publicUrl, pair.b.internalUrl, 'Bobfederated'),
    ]);
  });
  afterAll(() => pair?.stop());

  const setPolicy = async (search_policy: string) =>
    expect((await api(pair.b.internalUrl).put(`/i/federation/remotes/${A}`, { domain: A, search_policy })).status).toBe(
      200,
    );
  const search = (q: string) => searchContacts(pair.a.publicUrl, alice.token, { q, domain: B });

  it("shows a remote user's profile, with its own domain and without email", async () => {
    const r = await getUser(pair.a.publicUrl, alice.token, { domain: B, id: bob.id });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ id: bob.id, qualified_id: { id: bob.id, domain: B }, handle: bob.handle });
    expect(r.body.email).toBeUndefined();
    expect(await getUser(pair.a.publicUrl, alice.token, { domain: B, id: crypto.randomUUID() })).toMatchObject({
      status: 404,
      body: wireError(404, 'not-found'),
    });
  });

  it('lists local and remote users together, by id and by handle', async () => {
    const byIds = await listUsers(pair.b.publicUrl, bob.token, {
      qualified_ids: [
        { id: alice.id, domain: A },
        { id: bob.id, domain: B },
      ],
    });
    expect(byIds.status, byIds.text).toBe(200);
    expect(
      byIds.body.found.map((u: any) => u.qualified_id).sort((x: any, y: any) => x.domain.localeCompare(y.domain)),
    ).toEqual(
      [
        { id: bob.id, domain: B },
        { id: alice.id, domain: A },
      ].sort((x, y) => x.domain.localeCompare(y.domain)),
    );
    expect(byIds.body.failed).toBeUndefined();
    const byHandle = await listUsers(pair.a.publicUrl, alice.token, {
      qualified_handles: [{ handle: bob.handle, domain: B }],
    });
    expect(byHandle.body.found.map((u: any) => u.id)).toEqual([bob.id]);
  });

  it('searches the remote with its full_search, exact_handle_search and no_search policies', async () => {
    await setPolicy('full_search');
    let r = await search('bobfed');
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ search_policy: 'full_search' });
    expect(r.body.documents.map((d: any) => d.qualified_id)).toContainEqual({ id: bob.id, domain: B });

    await setPolicy('exact_handle_search');
    r = await search('bobfed');
    expect(r.body).toMatchObject({ search_policy: 'exact_handle_search', documents: [] });
    r = await search(bob.handle);
    expect(r.body.documents.map((d: any) => d.id)).toEqual([bob.id]);

    await setPolicy('no_search');
    r = await search(bob.handle);
    expect(r.body).toMatchObject({ search_policy: 'no_search', documents: [] });
    const byHandle = await listUsers(pair.a.publicUrl, alice.token, {
      qualified_handles: [{ handle: bob.handle, domain: B }],
    });
    expect(byHandle.body.found).toEqual([]);
    await setPolicy('full_search');
  });

  it('refuses to reach a backend outside the allow list', async () => {
    const r = await getUser(pair.a.publicUrl, alice.token, { domain: 'c.example.com', id: bob.id });
    expect(r).toMatchObject({ status: 400, body: wireError(400, 'federation-denied') });
  });
});

describe('federation off', () => {
  it('answers for other domains with federation-not-enabled, without a federator', async () => {
    const off = await startEditedBackend(
      ['brig.yaml', 'galley.yaml', 'cargohold.yaml', 'background-worker.yaml'].map(
        (f): Edit => [f, ['enableFederation'], false],
      ),
    );
    try {
      const u = await createUser(off.publicUrl, off.internalUrl);
      for (const path of [`/v8/users/${B}/${u.id}`, `/v8/users/${B}/${u.id}/clients`, `/v8/users/${B}/${u.id}/prekeys`])
        expect(await api(off.publicUrl, u.token).get(path)).toMatchObject({
          status: 400,
          body: wireError(400, 'federation-not-enabled'),
        });
      expect(off.federator).toBeUndefined();
    } finally {
      await off.stop();
    }
  });
});
