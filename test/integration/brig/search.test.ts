import { describe, expect, it } from 'vitest';
import { sharedBackend, startEditedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { invitationCode } from '../../helpers/mailbox.js';
import {
  api,
  cookieOf,
  createUser,
  invitedMember,
  login,
  teamOwner,
  uniqueEmail,
  type TeamOwner,
  type TestUser,
} from '../../helpers/users.js';
import {
  postAccess,
  postRegister,
  postTeamInvitation,
  putSelfHandle,
  searchContacts,
} from '../../helpers/endpoints/brig.js';
import { putTeamFeature } from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();
const password = 'secret-password';

async function teammate(owner: TeamOwner, name: string): Promise<TestUser> {
  const email = uniqueEmail('mate');
  expect((await postTeamInvitation(publicUrl, owner.token, owner.team, { email })).status).toBe(201);
  const code = await invitationCode(publicUrl, email);
  const r = await postRegister(publicUrl, { name, email, password, team_code: code });
  expect(r.status, r.text).toBe(201);
  return { id: r.body.id, name, email, password, ...(await login(publicUrl, email, password)) };
}

async function setHandle(u: TestUser, handle: string): Promise<void> {
  expect((await putSelfHandle(publicUrl, u.token, { handle })).status).toBe(200);
}

const found = async (u: TestUser, q: string) =>
  (
    (await searchContacts(publicUrl, u.token, { q })).body.documents as Array<{
      id: string;
    }>
  ).map((d) => d.id);

describe('GET /search/contacts', () => {
  it('finds by name and handle prefixes, honours inbound visibility, and always finds exact handles', async () => {
    const word = `zq${Math.random().toString(36).slice(2, 8)}`;
    const personal = await createUser(publicUrl, internalUrl, { name: `${word}personal Smith` });
    const other = await createUser(publicUrl, internalUrl, { name: 'Searcher' });
    const owner = await teamOwner(publicUrl, internalUrl, `${word}owner Jones`);
    const mate = await teammate(owner, `${word}mate Brown`);
    await setHandle(owner, `${word}.boss`);

    const r = await searchContacts(publicUrl, other.token, { q: word });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ found: 1, returned: 1, search_policy: 'full_search', took: expect.any(Number) });
    expect(r.body.documents).toEqual([
      {
        id: personal.id,
        qualified_id: { id: personal.id, domain: 'example.com' },
        name: `${word}personal Smith`,
        accent_id: 0,
      },
    ]);
    // The team is searchable by its own members only (searchVisibilityInbound off by default)...
    expect(await found(mate, word)).toEqual(expect.arrayContaining([owner.id, personal.id]));
    // ...but an exact handle is found by anyone, and first.
    const byHandle = await api(publicUrl, other.token).get(`/v8/search/contacts?q=@${word}.boss`);
    expect(byHandle.body.documents[0]).toMatchObject({ id: owner.id, handle: `${word}.boss`, team: owner.team });
    // Searchable by all teams once the team says so.
    expect(
      (await api(internalUrl).put(`/i/teams/${owner.team}/features/searchVisibilityInbound`, { status: 'enabled' }))
        .status,
    ).toBe(200);
    expect(await found(other, word)).toEqual(expect.arrayContaining([personal.id, owner.id, mate.id]));
    expect(await found(other, `${word}mate bro`)).toEqual([mate.id]);
    expect((await searchContacts(publicUrl, undefined, { q: word })).status).toBe(401);
    expect(await found(other, '"*^()')).toEqual([]);
  });

  it('refuses users without an identity (ephemeral) and external partners: insufficient-permissions', async () => {
    await createUser(publicUrl, internalUrl, { name: 'Findable' });
    const registered = await postRegister(publicUrl, { name: 'Nameless' });
    expect(registered.status, registered.text).toBe(201);
    const access = await postAccess(publicUrl, undefined, cookieOf(registered));
    expect(access.status, access.text).toBe(200);
    const owner = await teamOwner(publicUrl, internalUrl);
    const partner = await invitedMember(publicUrl, owner, 'partner');
    const member = await invitedMember(publicUrl, owner, 'member');
    for (const token of [access.body.access_token, partner.token]) {
      for (const query of ['q=Findable', `q=Findable&domain=example.com`])
        expect(await api(publicUrl, token).get(`/v8/search/contacts?${query}`)).toMatchObject({
          status: 403,
          body: wireError(403, 'insufficient-permissions'),
        });
    }
    expect((await searchContacts(publicUrl, member.token, { q: 'Findable' })).status).toBe(200);
  });

  it('hides everyone outside the team for no-name-outside-team, exact handles included', async () => {
    const word = `zq${Math.random().toString(36).slice(2, 8)}`;
    const outsider = await createUser(publicUrl, internalUrl, { name: `${word}outsider` });
    await setHandle(outsider, `${word}.out`);
    const owner = await teamOwner(publicUrl, internalUrl, `${word}owner`);
    const mate = await teammate(owner, `${word}mate`);
    const me = api(publicUrl, owner.token);
    const visibility = `/v8/teams/${owner.team}/search-visibility`;
    expect((await me.get(visibility)).body).toEqual({ search_visibility: 'standard' });
    expect(await me.put(visibility, { search_visibility: 'no-name-outside-team' })).toMatchObject({
      status: 403,
      body: wireError(403, 'team-search-visibility-not-enabled'),
    });
    expect(
      (await putTeamFeature(publicUrl, owner.token, owner.team, 'searchVisibility', { status: 'enabled' })).status,
    ).toBe(200);
    expect(
      await api(publicUrl, mate.token).put(visibility, { search_visibility: 'no-name-outside-team' }),
    ).toMatchObject({
      status: 403,
      body: wireError(403, 'operation-denied'),
    });
    expect((await me.put(visibility, { search_visibility: 'no-name-outside-team' })).status).toBe(204);
    expect(await found(mate, word)).toEqual([owner.id]);
    expect(await found(mate, `${word}.out`)).toEqual([]);
    // Turning the feature off puts the team back to standard.
    expect(
      (await putTeamFeature(publicUrl, owner.token, owner.team, 'searchVisibility', { status: 'disabled' })).status,
    ).toBe(200);
    expect((await me.get(visibility)).body).toEqual({ search_visibility: 'standard' });
    expect(await found(mate, `${word}.out`)).toEqual([outsider.id]);
  });
});

describe('the searchable flag', () => {
  it('leaves non-searchable users out of name search; their exact handle still finds them', async () => {
    // No public route sets the flag before v12, so the test sets the stored column.
    const backend = await startEditedBackend([]);
    try {
      const word = `zq${Math.random().toString(36).slice(2, 8)}`;
      const hidden = await createUser(backend.publicUrl, backend.internalUrl, { name: `${word}hidden` });
      const searcher = await createUser(backend.publicUrl, backend.internalUrl, { name: 'Searcher' });
      expect((await putSelfHandle(backend.publicUrl, hidden.token, { handle: `${word}.h` })).status).toBe(200);
      const search = async (q: string) =>
        ((await searchContacts(backend.publicUrl, searcher.token, { q })).body.documents as Array<{ id: string }>).map(
          (d) => d.id,
        );
      expect(await search(word)).toEqual([hidden.id]);
      await backend.query('UPDATE users SET searchable = 0 WHERE id = ?', hidden.id);
      expect(await search(word)).toEqual([]);
      expect(await search(`@${word}.h`)).toEqual([hidden.id]);
    } finally {
      await backend.stop();
    }
  });
});
