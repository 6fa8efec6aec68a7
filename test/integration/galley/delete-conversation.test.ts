import { describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { connect, createUser, teamOwner } from '../../helpers/users.js';
import { openSocket } from '../../helpers/websocket.js';
import {
  deleteTeamConversation,
  getConversation,
  listConversationIds,
  postConversation,
  updateConversationMember,
} from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();
const q = (id: string) => ({ id, domain: 'example.com' });

describe('DELETE /teams/{tid}/conversations/{cid}', () => {
  it('lets a team member with delete_conversation remove it; members get conversation.delete', async () => {
    const owner = await teamOwner(publicUrl, internalUrl);
    const guest = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, owner, guest);
    const created = await postConversation(publicUrl, owner.token, {
      name: 'Team room',
      qualified_users: [q(guest.id)],
      conversation_role: 'wire_member',
      team: { teamid: owner.team, managed: false },
      access_role: ['team_member', 'non_team_member'],
    });
    expect(created.status, created.text).toBe(201);
    const conv = created.body.qualified_id.id as string;

    // The guest is a member, but its role lacks the action; once admin, it is still no team member.
    expect(await deleteTeamConversation(publicUrl, guest.token, owner.team, conv)).toMatchObject({
      status: 403,
      body: { ...wireError(403, 'action-denied'), message: 'Insufficient authorization (missing delete_conversation)' },
    });
    const promote = await updateConversationMember(
      publicUrl,
      owner.token,
      { domain: 'example.com', id: conv },
      { domain: 'example.com', id: guest.id },
      {
        conversation_role: 'wire_admin',
      },
    );
    expect(promote.status, promote.text).toBe(200);
    expect(await deleteTeamConversation(publicUrl, guest.token, owner.team, conv)).toMatchObject({
      status: 403,
      body: wireError(403, 'no-team-member'),
    });
    // A stranger: the conversation is not found.
    const stranger = await teamOwner(publicUrl, internalUrl);
    expect((await deleteTeamConversation(publicUrl, stranger.token, owner.team, conv)).status).toBe(404);

    const socket = await openSocket(publicUrl, `/v8/await?access_token=${guest.token}`);
    try {
      const deleted = await deleteTeamConversation(publicUrl, owner.token, owner.team, conv);
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
    expect(await getConversation(publicUrl, owner.token, { domain: 'example.com', id: conv })).toMatchObject({
      status: 404,
      body: wireError(404, 'no-conversation'),
    });
    const ids = await listConversationIds(publicUrl, guest.token, {});
    expect(ids.body.qualified_conversations).not.toContainEqual(q(conv));
    expect((await deleteTeamConversation(publicUrl, owner.token, owner.team, conv)).status).toBe(404);
  });
});
