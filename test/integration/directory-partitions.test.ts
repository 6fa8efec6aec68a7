import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionOfSlot, slotOf } from '../../src/shared/db/partitions.js';
import { startEditedBackend, type TestBackend } from '../helpers/backend.js';
import { addClient } from '../helpers/clients.js';
import { getSelf, getTeamSearch, listUsers, searchContacts } from '../helpers/endpoints/brig.js';
import { getTeamMembers, postConversation } from '../helpers/endpoints/galley.js';
import { otrMessage, postOtr } from '../helpers/otr.js';
import { api, connect, createUser, invitedMember, type TestUser, teamOwner } from '../helpers/users.js';

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

  it("keeps a team with the accounts made for it in its slot's partition, and lists and searches its members", async () => {
    // Owners until one's team lands outside partition 0 (half of them do).
    let owner = await teamOwner(b.publicUrl, b.internalUrl);
    while (bindingOf(owner.team) === 'DB') owner = await teamOwner(b.publicUrl, b.internalUrl);
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
});
