import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { api, invitedMember, teamOwner, type TeamOwner, type TeamRole } from '../../helpers/users.js';
import { getConversation, postConversation, putConversationAccess } from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();
const internal = api(internalUrl);

type Setting = 'everyone' | 'team-members' | 'admins';

describe('channels: who may create them and who may open them', () => {
  let owner: TeamOwner;
  const token: Partial<Record<TeamRole, string>> = {};

  beforeAll(async () => {
    owner = await teamOwner(publicUrl, internalUrl);
    token.owner = owner.token;
    for (const role of ['admin', 'member', 'partner'] as const)
      token[role] = (await invitedMember(publicUrl, owner, role)).token;
  });

  async function configure(create: Setting, open: Setting): Promise<void> {
    const r = await internal.patch(`/i/teams/${owner.team}/features/channels`, {
      status: 'enabled',
      lockStatus: 'unlocked',
      config: { allowed_to_create_channels: create, allowed_to_open_channels: open },
    });
    expect(r.status, r.text).toBe(200);
  }

  const createChannel = (role: TeamRole, access = ['invite']) =>
    postConversation(publicUrl, token[role], {
      name: `channel of ${role}`,
      qualified_users: [],
      team: { teamid: owner.team, managed: false },
      group_conv_type: 'channel',
      protocol: 'mls',
      access,
      access_role: ['team_member'],
    });

  const denied = { status: 403, body: wireError(403, 'operation-denied') };

  it('admits to creation exactly the roles allowed_to_create_channels names', async () => {
    const cases: Array<[Setting, TeamRole[], TeamRole[]]> = [
      ['admins', ['owner', 'admin'], ['member', 'partner']],
      ['team-members', ['owner', 'admin', 'member'], ['partner']],
      ['everyone', ['owner', 'admin', 'member', 'partner'], []],
    ];
    for (const [setting, allowed, refused] of cases) {
      await configure(setting, 'everyone');
      for (const role of allowed) expect((await createChannel(role)).status, `${setting}: ${role}`).toBe(201);
      for (const role of refused) expect(await createChannel(role), `${setting}: ${role}`).toMatchObject(denied);
    }
  });

  it('admits to creating an open channel (access `link`) only the roles allowed_to_open_channels names', async () => {
    await configure('everyone', 'admins');
    expect(await createChannel('member', ['invite', 'link'])).toMatchObject(denied);
    expect((await createChannel('admin', ['invite', 'link'])).status).toBe(201);
    // A closed channel stays within the creation rule.
    expect((await createChannel('member')).status).toBe(201);
  });

  it('lets only those roles open an existing channel; closing it again and other conversations are not concerned', async () => {
    await configure('everyone', 'admins');
    const channel = (await createChannel('member')).body.qualified_id;
    const open = { access: ['invite', 'link'], access_role: ['team_member'] };
    expect(await putConversationAccess(publicUrl, token.member, channel, open)).toMatchObject(denied);
    expect((await getConversation(publicUrl, token.member, channel)).body.access).toEqual(['invite']);

    await configure('everyone', 'team-members');
    expect((await putConversationAccess(publicUrl, token.member, channel, open)).status).toBe(200);
    await configure('everyone', 'admins');
    expect(
      (
        await putConversationAccess(publicUrl, token.member, channel, {
          access: ['invite'],
          access_role: ['team_member'],
        })
      ).status,
    ).toBe(200);

    // A group conversation of the same team takes a link whatever the channels feature says.
    const group = await postConversation(publicUrl, token.member, {
      name: 'group',
      qualified_users: [],
      team: { teamid: owner.team, managed: false },
      access: ['invite'],
      access_role: ['team_member'],
    });
    const g = group.body.qualified_id;
    expect((await putConversationAccess(publicUrl, token.member, g, open)).status).toBe(200);
  });

  it('keeps the add permission a channel is created with, `everyone` by default; a group conversation has none', async () => {
    await configure('everyone', 'everyone');
    const create = (extra: Record<string, unknown>) =>
      postConversation(publicUrl, token.owner, {
        qualified_users: [],
        team: { teamid: owner.team, managed: false },
        protocol: 'mls',
        access_role: ['team_member'],
        ...extra,
      });
    const cases: Array<[Record<string, unknown>, string | null]> = [
      [{ group_conv_type: 'channel', add_permission: 'admins' }, 'admins'],
      [{ group_conv_type: 'channel' }, 'everyone'],
      [{ add_permission: 'admins' }, null],
    ];
    for (const [extra, expected] of cases) {
      const created = await create(extra);
      expect(created.status, created.text).toBe(201);
      expect(created.body.add_permission, JSON.stringify(extra)).toBe(expected);
      const { id, domain } = created.body.qualified_id;
      expect((await getConversation(publicUrl, token.owner, { domain: domain, id: id })).body.add_permission).toBe(
        expected,
      );
    }
  });
});
