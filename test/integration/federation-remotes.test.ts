import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend, type TestBackend } from '../helpers/backend.js';
import { call, postJson, wireError } from '../helpers/http.js';

const { internalUrl } = sharedBackend();
const remote = (domain: string, search_policy = 'full_search') => ({ domain, search_policy });

describe('/i/federation/remotes (D1)', () => {
  it('adds, lists and updates remote backends', async () => {
    expect((await postJson(internalUrl, '/i/federation/remotes', remote('a.fed.example.org'))).status).toBe(200);
    const teams = { tag: 'restrict_by_team', value: ['2c3d9a1e-5f6b-4c7d-8e9f-0a1b2c3d4e5f'] };
    expect(
      (
        await postJson(
          internalUrl,
          '/i/federation/remotes/a.fed.example.org',
          { ...remote('a.fed.example.org', 'no_search'), restriction: teams },
          'PUT',
        )
      ).status,
    ).toBe(200);
    const list = await call(internalUrl, '/i/federation/remotes');
    expect(list.body).toMatchObject({ strategy: 'allowList', update_interval: 10 });
    expect(list.body.remotes).toContainEqual({
      domain: 'a.fed.example.org',
      search_policy: 'no_search',
      restriction: teams,
    });
  });

  it('refuses to update an unknown remote or to change its domain', async () => {
    expect(
      (await postJson(internalUrl, '/i/federation/remotes/z.fed.example.org', remote('z.fed.example.org'), 'PUT')).body,
    ).toEqual(wireError(404, 'federation-remote-not-found'));
    expect(
      (await postJson(internalUrl, '/i/federation/remotes/y.fed.example.org', remote('x.fed.example.org'), 'PUT')).body,
    ).toEqual(wireError(400, 'federation-domain-mismatch'));
  });

  it('refuses a domain that is not DNS-shaped', async () => {
    expect((await postJson(internalUrl, '/i/federation/remotes', remote('localhost'))).body).toEqual(
      wireError(400, 'bad-request'),
    );
  });
});

describe('with a static list in brig.yaml', () => {
  let b: TestBackend;
  beforeAll(async () => {
    b = await startEditedBackend([
      ['brig.yaml', ['optSettings', 'setFederationStrategy'], 'allowDynamic'],
      [
        'brig.yaml',
        ['optSettings', 'setFederationDomainConfigs'],
        [remote('static.example.org', 'exact_handle_search')],
      ],
    ]);
  });
  afterAll(async () => b?.stop());

  it('lists configured remotes with the dynamic ones', async () => {
    await postJson(b.internalUrl, '/i/federation/remotes', remote('dynamic.example.org'));
    const list = await call(b.internalUrl, '/i/federation/remotes');
    expect(list.body.strategy).toBe('allowDynamic');
    expect(list.body.remotes.map((r: { domain: string }) => r.domain)).toEqual([
      'static.example.org',
      'dynamic.example.org',
    ]);
  });

  it('refuses settings that diverge from the configuration', async () => {
    expect(
      (await postJson(b.internalUrl, '/i/federation/remotes', remote('static.example.org', 'full_search'))).body,
    ).toEqual(wireError(409, 'federation-remote-diverging-config'));
    expect(
      (await postJson(b.internalUrl, '/i/federation/remotes', remote('static.example.org', 'exact_handle_search')))
        .status,
    ).toBe(200);
  });
});
