import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { getTeamConversations } from '../../helpers/endpoints/galley.js';
import { legacyConversation } from '../../helpers/legacy-conversation.js';
import { teamOwner, type TeamOwner } from '../../helpers/users.js';

/**
 * Migration 0033 keeps what galley asks across conversations in tables of its own (a team's
 * conversations, members of other domains, copies of other backends' conversations, bots). A
 * state the previous version wrote, with none of them, is indexed on the next start.
 */
const D = 'example.com';
const REMOTE = 'remote.example';

describe('the indexes across conversations, on a state of the previous version', () => {
  let before: TestBackend;
  let after: TestBackend | undefined;
  let owner: TeamOwner;
  let teamConv: string;
  const copy = crypto.randomUUID();
  const stranger = crypto.randomUUID();

  beforeAll(async () => {
    before = await startEditedBackend([]);
    owner = await teamOwner(before.publicUrl, before.internalUrl);
    teamConv = await legacyConversation(before, {
      name: 'Earlier room',
      team: owner.team,
      members: [{ id: owner.id }],
    });
    // A member of another backend in it, and a copy of another backend's conversation with the owner.
    const member = `INSERT INTO conversation_members (conv_domain, conv_id, user_domain, user_id, joined_at) VALUES (?, ?, ?, ?, ?)`;
    await before.query(member, D, teamConv, REMOTE, stranger, Date.now());
    await before.query(
      `INSERT INTO conversations (domain, id, type, name, created_at) VALUES (?, ?, 0, 'theirs', ?)`,
      REMOTE,
      copy,
      Date.now(),
    );
    await before.query(member, REMOTE, copy, D, owner.id, Date.now());
    // The state before migration 0033: none of its tables, and the index by team it dropped.
    for (const table of ['team_conversations', 'foreign_members', 'conversation_copies', 'service_bots'])
      await before.query(`DROP TABLE ${table}`);
    await before.query('CREATE INDEX conversations_team ON conversations (team)');
    await before.query("DELETE FROM d1_migrations WHERE name LIKE '0033%'");
  });
  afterAll(async () => {
    await (after ?? before).stop();
  });

  it('are filled at the next start: the team lists its conversation, the end of federation finds the others', async () => {
    await before.stop();
    after = await startEditedBackend([], { stateDir: before.stateDir });
    const listed = await getTeamConversations(after.publicUrl, owner.token, owner.team);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.conversations.map((c: { conversation: string }) => c.conversation)).toContain(teamConv);
    expect(await after.query('SELECT conv_id, user_domain, user_id FROM foreign_members')).toEqual(
      expect.arrayContaining([
        { conv_id: teamConv, user_domain: REMOTE, user_id: stranger },
        { conv_id: copy, user_domain: D, user_id: owner.id },
      ]),
    );
    expect(await after.query('SELECT domain, id FROM conversation_copies')).toEqual([{ domain: REMOTE, id: copy }]);
    expect(await after.query("SELECT name FROM sqlite_master WHERE name = 'conversations_team'")).toEqual([]);
  });
});
