import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { api, connect, createUser, teamOwner } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';

const { publicUrl, internalUrl } = sharedBackend();
const q = (id: string) => ({ id, domain: 'example.com' });

describe('DELETE /teams/{tid}/conversations/{cid}', () => {
  it('lets a team member with delete_conversation remove it; members get conversation.delete', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const guest = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, owner, guest);
    const created = await api(publicUrl, owner.token).post('/v8/conversations', {
      name: 'Team room',
      qualified_users: [q(guest.id)],
      conversation_role: 'wire_member',
      team: { teamid: owner.team, managed: false },
      access_role: ['team_member', 'non_team_member'],
    });
    expect(created.status, created.text).toBe(201);
    const conv = created.body.qualified_id.id as string;
    const path = `/v8/teams/${owner.team}/conversations/${conv}`;

    // The guest is a member, but its role lacks the action; once admin, it is still no team member.
    expect(await api(publicUrl, guest.token).del(path)).toMatchObject({
      status: 403,
      body: { ...wireError(403, 'action-denied'), message: 'Insufficient authorization (missing delete_conversation)' },
    });
    const promote = await api(publicUrl, owner.token).put(
      `/v8/conversations/example.com/${conv}/members/example.com/${guest.id}`,
      {
        conversation_role: 'wire_admin',
      },
    );
    expect(promote.status, promote.text).toBe(200);
    expect(await api(publicUrl, guest.token).del(path)).toMatchObject({
      status: 403,
      body: wireError(403, 'no-team-member'),
    });
    // A stranger: the conversation is not found.
    const stranger = await teamOwner(publicUrl, internalUrl);
    expect((await api(publicUrl, stranger.token).del(path)).status).toBe(404);

    const socket = await openSocket(publicUrl, `/v8/await?access_token=${guest.token}`);
    try {
      const deleted = await api(publicUrl, owner.token).del(path);
      expect(deleted.status, deleted.text).toBe(200);
      const frame = await socket.next((m) => m.payload?.[0]?.type === 'conversation.delete');
      expect(frame.payload[0]).toMatchObject({
        type: 'conversation.delete',
        qualified_conversation: q(conv),
        qualified_from: q(owner.id),
        team: owner.team,
        data: null,
      });
    } finally {
      await socket.close();
    }
    expect(await api(publicUrl, owner.token).get(`/v8/conversations/example.com/${conv}`)).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
    const ids = await api(publicUrl, guest.token).post('/v8/conversations/list-ids', {});
    expect(ids.body.qualified_conversations).not.toContainEqual(q(conv));
    expect((await api(publicUrl, owner.token).del(path)).status).toBe(404);
  });
});
