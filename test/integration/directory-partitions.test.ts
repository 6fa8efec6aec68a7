import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionOfSlot, slotOf } from '../../src/shared/db/partitions.js';
import { startEditedBackend, type TestBackend } from '../helpers/backend.js';
import { addClient } from '../helpers/clients.js';
import {
  acceptTeamInvitation,
  getSelf,
  getTeamSearch,
  listUsers,
  postTeamInvitation,
  searchContacts,
} from '../helpers/endpoints/brig.js';
import { getTeamMembers, postConversation } from '../helpers/endpoints/galley.js';
import { otrMessage, postOtr } from '../helpers/otr.js';
import { api, connect, createUser, invitedMember, type TeamOwner, type TestUser, teamOwner } from '../helpers/users.js';
import { call } from '../helpers/http.js';
import { invitationCode } from '../helpers/mailbox.js';
import { accessToken, signIn, teamWithIdp } from '../helpers/saml-login.js';
import { createScimToken } from '../helpers/endpoints/spar.js';

/**
 * A directory of two D1 databases: each user's row lives in the partition of its id's slot, and
 * what a client does reaches it there.
 */
const bindingOf = (key: string) => (partitionOfSlot(slotOf(key), 2) === 0 ? 'DB' : 'DB_1');
const otherThan = (binding: string) => (binding === 'DB' ? 'DB_1' : 'DB');

describe('the directory over two partitions', () => {
  let b: TestBackend;
  let users: TestUser[];
  beforeAll(async () => {
    b = await startEditedBackend([], { partitions: 2 });
    users = await Promise.all(Array.from({ length: 6 }, () => createUser(b.publicUrl, b.internalUrl)));
  });
  afterAll(async () => b?.stop());

  it("keeps each account in its own slot's partition, where the user's requests find it", async () => {
    for (const u of users) {
      const here = bindingOf(u.id);
      expect(await b.queryIn(here, 'SELECT id FROM users WHERE id = ?', u.id)).toEqual([{ id: u.id }]);
      expect(await b.queryIn(otherThan(here), 'SELECT id FROM users WHERE id = ?', u.id)).toEqual([]);
      const self = await getSelf(b.publicUrl, u.token);
      expect(self.status, self.text).toBe(200);
      expect(self.body.id).toBe(u.id);
      const renamed = await api(b.publicUrl, u.token).put('/self', { name: `Renamed ${u.id.slice(0, 4)}` });
      expect(renamed.status, renamed.text).toBe(200);
    }
    expect(new Set(users.map((u) => bindingOf(u.id))).size).toBe(2);
    // list-users of users in both partitions (the test profile allows 4 ids a call).
    const mixed = [users.find((u) => bindingOf(u.id) === 'DB')!, users.find((u) => bindingOf(u.id) === 'DB_1')!];
    const listed = await listUsers(b.publicUrl, users[0]!.token, {
      qualified_ids: mixed.map((u) => ({ id: u.id, domain: 'example.com' })),
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.found.map((p: { id: string }) => p.id).sort()).toEqual(mixed.map((u) => u.id).sort());
  });

  it('connects users of both partitions, delivers their messages to every client and finds them by name', async () => {
    const a = users.find((u) => bindingOf(u.id) === 'DB')!;
    const z = users.find((u) => bindingOf(u.id) === 'DB_1')!;
    const [aClient, zClient] = await Promise.all([addClient(b.publicUrl, a), addClient(b.publicUrl, z)]);
    expect(await b.queryIn('DB_1', 'SELECT id FROM clients WHERE user = ?', z.id)).toEqual([{ id: zClient }]);
    await connect(b.publicUrl, a, z);
    const conv = await postConversation(b.publicUrl, a.token, {
      qualified_users: [{ id: z.id, domain: 'example.com' }],
      name: 'Across',
    });
    expect(conv.status, conv.text).toBe(201);
    const sent = await postOtr(
      b.publicUrl,
      a.token,
      conv.body.qualified_id.id,
      otrMessage(aClient, [{ user: z.id, client: zClient, text: 'hi' }]),
    );
    // Every client of the other partition's member was known: nothing missing.
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.missing).toEqual({});
    const found = await searchContacts(b.publicUrl, a.token, { q: `Renamed ${z.id.slice(0, 4)}` });
    expect(found.status, found.text).toBe(200);
    expect(found.body.documents.map((d: { id: string }) => d.id)).toContain(z.id);
  });

  /** Owners until one's team lands outside partition 0 (half of them do). */
  async function ownerOfSecondPartition(): Promise<TeamOwner> {
    let owner = await teamOwner(b.publicUrl, b.internalUrl);
    while (bindingOf(owner.team) === 'DB') owner = await teamOwner(b.publicUrl, b.internalUrl);
    return owner;
  }

  it("keeps a team with the accounts made for it in its slot's partition, and lists and searches its members", async () => {
    const owner = await ownerOfSecondPartition();
    const member = await invitedMember(b.publicUrl, owner);
    for (const id of [owner.id, member.id]) {
      expect(bindingOf(id)).toBe('DB_1');
      expect(await b.queryIn('DB_1', 'SELECT team FROM team_members WHERE user = ?', id)).toEqual([
        { team: owner.team },
      ]);
    }
    expect(await b.queryIn('DB_1', 'SELECT id FROM teams WHERE id = ?', owner.team)).toEqual([{ id: owner.team }]);
    expect(await b.queryIn('DB', 'SELECT id FROM teams WHERE id = ?', owner.team)).toEqual([]);
    const listed = await getTeamMembers(b.publicUrl, owner.token, owner.team);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.members.map((m: { user: string }) => m.user).sort()).toEqual([owner.id, member.id].sort());
    const searched = await getTeamSearch(b.publicUrl, owner.token, owner.team, { q: 'member' });
    expect(searched.status, searched.text).toBe(200);
    expect(searched.body.documents.map((d: { id: string }) => d.id)).toEqual([member.id]);
  });

  it("lists a team's conversations from the team's partition", async () => {
    const owner = await ownerOfSecondPartition();
    const created = await postConversation(b.publicUrl, owner.token, {
      name: 'Team room',
      team: { teamid: owner.team, managed: false },
      qualified_users: [],
    });
    expect(created.status, created.text).toBe(201);
    const conv = created.body.qualified_id.id as string;
    const entries = (binding: string) =>
      b.queryIn(binding, 'SELECT conv_id FROM team_conversations WHERE team = ?', owner.team);
    expect(await entries('DB_1')).toEqual([{ conv_id: conv }]);
    expect(await entries('DB')).toEqual([]);
    const owners = api(b.publicUrl, owner.token);
    const listed = await owners.get(`/v8/teams/${owner.team}/conversations`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.conversations).toEqual([{ conversation: conv, managed: false }]);
    const deleted = await owners.del(`/v8/teams/${owner.team}/conversations/${conv}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(await entries('DB_1')).toEqual([]);
    expect((await owners.get(`/v8/teams/${owner.team}/conversations`)).body.conversations).toEqual([]);
  });

  it("binds the users of a team's IdP in the team's partition, where their next sign-in finds them", async () => {
    const owner = await ownerOfSecondPartition();
    const { idp, idpId } = await teamWithIdp(b.publicUrl, b.internalUrl, owner);
    const nameId = `sso-${crypto.randomUUID().slice(0, 8)}`;
    const selfOf = async (cookie: string) => (await getSelf(b.publicUrl, await accessToken(b.publicUrl, cookie))).body;
    const first = await selfOf(await signIn(b.publicUrl, idp, idpId, nameId));
    expect(first.team).toBe(owner.team);
    expect(bindingOf(first.id)).toBe('DB_1');
    expect(await b.queryIn('DB_1', 'SELECT name_id FROM spar_saml_users WHERE user = ?', first.id)).toHaveLength(1);
    expect((await selfOf(await signIn(b.publicUrl, idp, idpId, nameId))).id).toBe(first.id);
  });

  it("lets a personal user of another partition join a team by invitation, and the team's SCIM take them over", async () => {
    const owner = await ownerOfSecondPartition();
    const personal = users.find((u) => bindingOf(u.id) === 'DB')!;
    const invited = await postTeamInvitation(b.publicUrl, owner.token, owner.team, { email: personal.email });
    expect(invited.status, invited.text).toBe(201);
    const code = await invitationCode(b.publicUrl, personal.email);
    const accepted = await acceptTeamInvitation(b.publicUrl, personal.token, { code, password: personal.password });
    expect(accepted.status, accepted.text).toBe(200);
    // The user's side in their slot's partition; the team's (the invitation used up, its queue's notice) in the team's.
    expect(await b.queryIn('DB', 'SELECT team FROM team_members WHERE user = ?', personal.id)).toEqual([
      { team: owner.team },
    ]);
    expect(await b.queryIn('DB_1', 'SELECT id FROM team_invitations WHERE team = ?', owner.team)).toEqual([]);
    const queue = await api(b.publicUrl, owner.token).get('/v8/teams/notifications');
    expect(queue.status, queue.text).toBe(200);
    expect(queue.body.notifications.map((n: any) => n.payload[0])).toContainEqual(
      expect.objectContaining({ type: 'team.member-join', team: owner.team, data: { user: personal.id } }),
    );
    expect((await getSelf(b.publicUrl, personal.token)).body.team).toBe(owner.team);

    // Rich info stays with the user.
    const fields = [{ type: 'Department', value: 'Partitions' }];
    const put = await api(b.internalUrl).put(`/i/users/${personal.id}/rich-info`, {
      rich_info: { version: 0, fields },
    });
    expect(put.status, put.text).toBe(200);
    expect(await b.queryIn('DB', 'SELECT user FROM rich_info WHERE user = ?', personal.id)).toEqual([
      { user: personal.id },
    ]);
    const rich = await api(b.publicUrl, owner.token).get(`/v8/users/${personal.id}/rich-info`);
    expect(rich.body.fields).toEqual(fields);

    // SCIM finds them by address and takes them over: its record in the team's partition, the account in theirs.
    const token = await createScimToken(b.publicUrl, owner.token, { description: 'x', password: owner.password });
    expect(token.status, token.text).toBe(200);
    const filter = encodeURIComponent(`externalId eq "${personal.email}"`);
    const found = await call(b.publicUrl, `/scim/v2/Users?filter=${filter}`, {
      headers: { authorization: `Bearer ${token.body.token}` },
    });
    expect(found.status, found.text).toBe(200);
    expect(found.body.Resources.map((r: { id: string }) => r.id)).toEqual([personal.id]);
    expect(await b.queryIn('DB_1', 'SELECT user FROM spar_scim_users WHERE team = ?', owner.team)).toEqual([
      { user: personal.id },
    ]);
    expect(await b.queryIn('DB', 'SELECT managed_by FROM users WHERE id = ?', personal.id)).toEqual([
      { managed_by: 'scim' },
    ]);
  });
});
