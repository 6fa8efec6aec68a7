// Scenarios of wire-server's integration/test/Test/Channels.hs.
import { describe, expect, it } from 'vitest';
import type { MlsDevice } from '../helpers/mls.js';
import { api, connect, createUser, invitedMember, type TestUser } from '../helpers/users.js';
import { as, awaitEvent, cid, internal, newConv, pub, qOf, socketOf, team } from './lib/env.js';
import {
  addAndJoin,
  addUsers,
  catchUp,
  commitBackendProposal,
  createGroup,
  device,
  getConv,
  joinExternally,
  type MlsConv,
  mlsConv,
  otherIds,
  removeDevices,
} from './lib/mls.js';
import {
  addMembers,
  deleteConversationCode,
  deleteTeamConversation,
  getConversation,
  getConversationCode,
  postConversation,
  postConversationCode,
  putConversationAddPermission,
  updateTeamMember,
} from '../helpers/endpoints/galley.js';

type Perms = 'everyone' | 'team-members' | 'admins';

/** Unlocks and enables the channels feature of a team with one rule for creating and opening. */
async function channels(tid: string, perms: Perms): Promise<void> {
  const r = await api(internal).patch(`/i/teams/${tid}/features/channels`, {
    status: 'enabled',
    lockStatus: 'unlocked',
    config: { allowed_to_create_channels: perms, allowed_to_open_channels: perms },
  });
  expect(r.status, r.text).toBe(200);
}

const channelBody = (tid: string, extra: Record<string, unknown> = {}) => ({
  group_conv_type: 'channel',
  team: { teamid: tid, managed: false },
  ...extra,
});

/** A channel a team admin creates without joining it (`skip_creator`): its creation response (201). */
async function channelOutside(owner: TestUser, tid: string, extra: Record<string, unknown> = {}) {
  const r = await postConversation(pub, owner.token, {
    protocol: 'mls',
    qualified_users: [],
    ...extra,
    ...channelBody(tid, { skip_creator: true }),
  });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

/** A channel created by a device's user whose first commit adds `members` (assertCreateChannelSuccess). */
async function createChannelAdding(d: MlsDevice, tid: string, members: TestUser[]): Promise<MlsConv> {
  const conv = await mlsConv(d, channelBody(tid, { add_permission: 'admins' }));
  expect(conv.body.group_conv_type).toBe('channel');
  const sent = await addUsers(d, conv, members);
  expect(sent.refused, sent.refused?.text).toBeUndefined();
  const r = await getConv(d.user, conv);
  expect(otherIds(r).sort()).toEqual(members.map((m) => m.id).sort());
  return conv;
}

async function createChannelRefused(u: TestUser, tid: string, label: string): Promise<void> {
  const r = await postConversation(pub, u.token, { protocol: 'mls', qualified_users: [], ...channelBody(tid) });
  expect(r).toMatchObject({ status: 403, body: { label } });
}

/** A team of an owner, `n` members and a partner, each with one MLS device holding `kps` key packages. */
async function channelTeam(n: number, kps: number) {
  const { owner, tid, members } = await team(n);
  const partner = await invitedMember(pub, owner, 'partner');
  const users = [owner, ...members, partner];
  const list = await Promise.all(users.map((u) => device(u, kps)));
  const devices = new Map(users.map((u, i) => [u.id, list[i]!]));
  return { owner, tid, members, partner, dev: (u: TestUser) => devices.get(u.id)! };
}

describe('Channels', () => {
  it('Channels.testCreateChannelEveryone', async () => {
    const { owner, tid, members, partner, dev } = await channelTeam(3, 3);
    const [mem, ...others] = members;
    await channels(tid, 'everyone');
    for (const u of [owner, mem!, partner]) await createChannelAdding(dev(u), tid, others);
  });

  it('Channels.testCreateChannelMembersOnly', async () => {
    const { owner, tid, members, partner, dev } = await channelTeam(3, 2);
    const [mem, ...others] = members;
    await channels(tid, 'team-members');
    for (const u of [owner, mem!]) await createChannelAdding(dev(u), tid, others);
    await createChannelRefused(partner, tid, 'operation-denied');
  });

  it('Channels.testCreateChannelAdminsOnly', async () => {
    const { owner, tid, members, partner, dev } = await channelTeam(3, 1);
    const [mem, ...others] = members;
    await channels(tid, 'admins');
    await createChannelAdding(dev(owner), tid, others);
    await createChannelRefused(mem!, tid, 'operation-denied');
    await createChannelRefused(partner, tid, 'operation-denied');
  });

  it('Channels.testCreateChannelFeatureDisabled', async () => {
    const { owner, tid } = await team();
    await createChannelRefused(owner, tid, 'channels-not-enabled');
  });

  it('Channels.testCreateChannelNonTeamConvNotAllowed', async () => {
    const user = await createUser(pub, internal);
    const r = await postConversation(pub, user.token, {
      protocol: 'mls',
      qualified_users: [],
      group_conv_type: 'channel',
    });
    expect(r).toMatchObject({ status: 403, body: { label: 'operation-denied' } });
  });

  it('Channels.testCreateChannelProteusNotAllowed', async () => {
    const { owner, tid } = await team();
    await channels(tid, 'everyone');
    const r = await postConversation(pub, owner.token, { qualified_users: [], ...channelBody(tid) });
    expect(r).toMatchObject({ status: 403, body: { label: 'not-mls-conversation' } });
  });

  it('Channels.testUpdateAddPermissions', async () => {
    const { owner: alice, tid, members } = await team(2);
    const [bob, chaz] = members;
    const a = await device(alice, 0);
    for (const u of [bob!, chaz!]) await device(u);
    await channels(tid, 'everyone');
    const conv = await mlsConv(a, channelBody(tid));
    expect((await getConv(alice, conv)).body.add_permission).toBe('everyone');
    expect((await addUsers(a, conv, [bob!, chaz!])).refused).toBeUndefined();
    const sockets = await Promise.all([alice, bob!, chaz!].map((u) => socketOf(u)));
    const r = await putConversationAddPermission(
      pub,
      alice.token,
      { domain: 'example.com', id: conv.id },
      {
        add_permission: 'admins',
      },
    );
    expect(r.status, r.text).toBe(200);
    for (const ws of sockets) {
      const e = await awaitEvent(ws, 'conversation.add-permission-update');
      expect(e.data.add_permission).toBe('admins');
      await ws.close();
    }
  });

  it('Channels.testSetAddPermissionOnChannelCreation', async () => {
    const { owner: alice, tid } = await team();
    const a = await device(alice, 1);
    await channels(tid, 'everyone');
    const conv = await mlsConv(a, channelBody(tid, { add_permission: 'admins' }));
    const r = await getConv(alice, conv);
    expect(r.status).toBe(200);
    expect(r.body.add_permission).toBe('admins');
  });

  it('Channels.testAddPermissionEveryone', async () => {
    const { owner: alice, tid, members } = await team(4);
    const [bob, chaz, delia, eric] = members as [TestUser, TestUser, TestUser, TestUser];
    const gunther = await createUser(pub, internal);
    await connect(pub, bob, gunther);
    await connect(pub, gunther, eric);
    const a = await device(alice);
    const [b, , , , g] = await Promise.all([bob, chaz, delia, eric, gunther].map((u) => device(u, 2)));
    await channels(tid, 'everyone');
    const conv = await mlsConv(a, channelBody(tid));
    await addAndJoin(a, conv, [bob], [b!]);
    const r = await getConv(alice, conv);
    expect(r.body.add_permission).toBe('everyone');
    expect(otherIds(r)).toEqual([bob.id]);
    expect(r.body.members.others.map((m: any) => m.conversation_role)).toEqual(['wire_member']);

    // A member adds another member, then a guest (connected to them); neither may be removed by them.
    expect((await addAndJoin(b!, conv, [chaz], [])).refused).toBeUndefined();
    expect((await addAndJoin(b!, conv, [gunther], [g!])).refused).toBeUndefined();
    // A guest may not add, even with everyone allowed.
    expect((await addUsers(g!, conv, [eric])).refused).toMatchObject({ status: 403 });
    // Back to admins: the member may not add any more.
    expect(
      (
        await putConversationAddPermission(
          pub,
          alice.token,
          { domain: 'example.com', id: conv.id },
          { add_permission: 'admins' },
        )
      ).status,
    ).toBe(200);
    expect((await addUsers(b!, conv, [delia])).refused).toMatchObject({ status: 403 });
  });

  for (const perm of ['admins', 'everyone'] as const) {
    const name =
      perm === 'admins' ? 'testAddPermissionAdminExternalPartner' : 'testAddPermissionEveryoneExternalPartner';
    it(`Channels.${name}`, async () => {
      const { owner, tid, members } = await team(2);
      await channels(tid, 'everyone');
      const partner = await invitedMember(pub, owner, 'partner');
      const o = await device(owner, 1);
      const p = await device(partner, 1);
      for (const m of members) await device(m, 1);
      const conv = await mlsConv(o, channelBody(tid, { add_permission: perm }));
      await addAndJoin(o, conv, [partner], [p]);
      const sent = await addUsers(p, conv, members);
      if (perm === 'admins') expect(sent.refused).toMatchObject({ status: 403, body: { label: 'action-denied' } });
      else {
        expect(sent.refused, sent.refused?.text).toBeUndefined();
        expect(otherIds(await getConv(owner, conv)).sort()).toEqual([partner.id, ...members.map((m) => m.id)].sort());
      }
    });
  }

  it('Channels.testTeamAdminCanCreateChannelWithoutJoining', async () => {
    const { owner, tid } = await team();
    await channels(tid, 'everyone');
    const r = await channelOutside(owner, tid);
    expect(r.members.others).toEqual([]);
  });

  it('Channels.testNonTeamAdminCannotAddMembersWithoutJoining', async () => {
    const { owner, tid, members } = await team(3);
    const [m1, m2, m3] = members as [TestUser, TestUser, TestUser];
    await channels(tid, 'admins');
    const r = await channelOutside(owner, tid);
    const add = await addMembers(
      pub,
      m1.token,
      { domain: 'example.com', id: cid(r) },
      {
        qualified_users: [qOf(m1), qOf(m2), qOf(m3)],
        conversation_role: 'wire_member',
      },
    );
    expect(add).toMatchObject({ status: 404, body: { label: 'no-conversation' } });
  });

  it('Channels.testTeamAdminCanChangeChannelNameWithoutJoining', async () => {
    const { owner, tid, members } = await team(1);
    await channels(tid, 'everyone');
    const r = await channelOutside(owner, tid, { name: 'foo' });
    expect(r.name).toBe('foo');
    const path = `/v8/conversations/example.com/${cid(r)}`;
    expect((await as(owner).put(`${path}/name`, { name: 'bar' })).status).toBe(200);
    expect((await as(owner).get(path)).body.name).toBe('bar');
    expect(await as(members[0]!).put(`${path}/name`, { name: 'baz' })).toMatchObject({
      status: 404,
      body: { label: 'no-conversation' },
    });
    expect((await as(owner).get(path)).body.name).toBe('bar');
  });

  it('Channels.testTeamAdminCanAddMembersWithoutJoining', async () => {
    const { owner, tid, members } = await team(5);
    const [m1, m2, m3, m4, m5] = members as [TestUser, TestUser, TestUser, TestUser, TestUser];
    const [d1, d2, d3, d4, d5] = (await Promise.all(members.map((m) => device(m, 1)))) as MlsDevice[] as [
      MlsDevice,
      MlsDevice,
      MlsDevice,
      MlsDevice,
      MlsDevice,
    ];
    await channels(tid, 'admins');
    const chan = await channelOutside(owner, tid);
    const path = `/v8/conversations/example.com/${cid(chan)}/members`;
    const ws1 = await socketOf(m1, d1.client);
    const add = await as(owner).post(path, {
      qualified_users: [m1, m2, m3].map(qOf),
      conversation_role: 'wire_member',
    });
    expect(add.status, add.text).toBe(200);
    expect(add.body.data.add_type).toBe('external_add');
    expect(otherIds(await getConv(owner, chan)).sort()).toEqual([m1.id, m2.id, m3.id].sort());
    const joined = await awaitEvent(ws1, 'conversation.member-join');
    ws1.close();
    expect(joined.data.add_type).toBe('external_add');
    expect((await getConv(m1, chan)).body.epoch).toBe(0);
    // m1's client starts the group and adds the clients of the others the backend added.
    const conv = await createGroup(d1, chan.qualified_id, chan.group_id);
    await addAndJoin(d1, conv, [m2, m3], [d2, d3]);

    const ws4 = await socketOf(m4, d4.client);
    const again = await as(owner).post(path, { qualified_users: [m4, m5].map(qOf), conversation_role: 'wire_member' });
    expect(again.status, again.text).toBe(200);
    expect((await awaitEvent(ws4, 'conversation.member-join')).data.add_type).toBe('external_add');
    ws4.close();
    // m4's client joins by external commit, then adds m5's.
    await joinExternally(d4, conv);
    await addAndJoin(d4, conv, [m5], [d5]);
  });

  it('Channels.testAdminCanRemoveMemberWithoutJoining', async () => {
    const { owner, tid, members } = await team(3);
    const [m1, m2, m3] = members as [TestUser, TestUser, TestUser];
    const [d1, , d3] = (await Promise.all(members.map((m) => device(m, 1)))) as [MlsDevice, MlsDevice, MlsDevice];
    await channels(tid, 'everyone');
    const conv = await createChannelAdding(d1, tid, [m2]);
    const path = `/v8/conversations/example.com/${conv.id}/members`;

    // The team admin removes m2 without being in the channel; m1's client commits the backend's proposal.
    const ws1 = await socketOf(m1, d1.client);
    expect((await as(owner).del(`${path}/example.com/${m2.id}`)).status).toBe(200);
    expect(otherIds(await getConv(owner, conv))).toEqual([m1.id]);
    await commitBackendProposal(d1, conv, ws1);
    ws1.close();

    // The last member removed, the channel is empty; m3, added by the admin, joins by external commit.
    expect((await as(owner).del(`${path}/example.com/${m1.id}`)).status).toBe(200);
    expect(otherIds(await getConv(owner, conv))).toEqual([]);
    const ws3 = await socketOf(m3, d3.client);
    const add = await addMembers(
      pub,
      owner.token,
      { domain: 'example.com', id: conv.id },
      { qualified_users: [qOf(m3)], conversation_role: 'wire_member' },
    );
    expect(add.status, add.text).toBe(200);
    expect((await awaitEvent(ws3, 'conversation.member-join')).data.add_type).toBe('external_add');
    await joinExternally(d3, conv);
    // The proposal removing m1's client waits for a member: m3's client commits it.
    await commitBackendProposal(d3, conv, ws3);
    ws3.close();
  });

  it('Channels.testTeamAdminCanGetChannelData', async () => {
    const { owner, tid, members } = await team(1);
    await channels(tid, 'everyone');
    const chan = await channelOutside(owner, tid);
    expect(chan.group_conv_type).toBe('channel');
    const asAdmin = await getConv(owner, chan);
    expect(asAdmin.status, asAdmin.text).toBe(200);
    expect(asAdmin.body.members.others).toEqual([]);
    expect(asAdmin.body.members.self ?? undefined).toBeUndefined();
    expect(await getConv(members[0]!, chan)).toMatchObject({ status: 403, body: { label: 'access-denied' } });
    const conv = await newConv(members[0]!, { protocol: 'mls', team: { teamid: tid, managed: false } });
    expect(conv.group_conv_type).toBe('group_conversation');
    expect(await getConv(owner, conv)).toMatchObject({ status: 403, body: { label: 'access-denied' } });
  });

  it('Channels.testTeamAdminPermissions', async () => {
    const { owner, tid, members } = await team(4);
    const [mem, nonAdmin, x1, x2] = members as [TestUser, TestUser, TestUser, TestUser];
    const dOwner = await device(owner, 2);
    const dMem = await device(mem, 2);
    const dNon = await device(nonAdmin, 2);
    const dx1 = await device(x1, 2);
    await device(x2, 2);
    await channels(tid, 'everyone');
    const conv = await mlsConv(dMem, channelBody(tid));
    await addAndJoin(dMem, conv, [owner, nonAdmin], [dOwner, dNon]);
    const seen = await getConv(mem, conv);
    expect(otherIds(seen).sort()).toEqual([owner.id, nonAdmin.id].sort());
    for (const m of seen.body.members.others) expect(m.conversation_role).toBe('wire_member');

    const path = `/v8/conversations/example.com/${conv.id}`;
    // The team owner, a plain conversation member, acts as a channel admin.
    const ownerApi = as(owner);
    expect((await ownerApi.put(`${path}/name`, { name: 'renamed' })).status).toBe(200);
    expect((await ownerApi.put(`${path}/message-timer`, { message_timer: 1000 })).status).toBe(200);
    expect(
      (await ownerApi.put(`${path}/access`, { access: ['code', 'invite'], access_role: ['team_member', 'guest'] }))
        .status,
    ).toBe(200);
    expect(
      (await ownerApi.put(`${path}/members/example.com/${mem.id}`, { conversation_role: 'wire_member' })).status,
    ).toBe(200);
    expect((await ownerApi.put(`${path}/self`, { otr_archived: true })).status).toBe(200);
    expect((await postConversationCode(pub, owner.token, conv.id, {})).status).toBe(201);
    expect((await getConversationCode(pub, owner.token, conv.id)).status).toBe(200);
    expect((await deleteConversationCode(pub, owner.token, conv.id)).status).toBe(200);
    // wire's assertSuccess: any 2xx (the channel's add_permission is `everyone` already, 204).
    expect([200, 204]).toContain((await ownerApi.put(`${path}/add-permission`, { add_permission: 'everyone' })).status);
    const after = await getConversation(pub, owner.token, { domain: 'example.com', id: conv.id });
    expect(after.body).toMatchObject({ name: 'renamed', message_timer: 1000, add_permission: 'everyone' });
    expect([...after.body.access_role].sort()).toEqual(['guest', 'team_member']);
    expect(after.body.members.self.otr_archived).toBe(true);
    expect((await ownerApi.put(`${path}/add-permission`, { add_permission: 'admins' })).status).toBe(200);
    expect((await addAndJoin(dOwner, conv, [x1], [dx1])).refused).toBeUndefined();
    expect((await removeDevices(dOwner, conv, [dx1])).refused).toBeUndefined();

    // A plain team member who is a conversation member is no channel admin.
    await catchUp(dNon, conv);
    const non = as(nonAdmin);
    const denied = { status: 403, body: { label: 'action-denied' } };
    expect(await non.put(`${path}/name`, { name: 'nope' })).toMatchObject(denied);
    expect(await non.put(`${path}/message-timer`, { message_timer: 2000 })).toMatchObject(denied);
    expect(await non.put(`${path}/access`, { access: ['code'], access_role: ['team_member', 'guest'] })).toMatchObject(
      denied,
    );
    expect(
      await non.put(`${path}/members/example.com/${owner.id}`, { conversation_role: 'wire_member' }),
    ).toMatchObject(denied);
    expect(await deleteTeamConversation(pub, nonAdmin.token, tid, conv.id)).toMatchObject(denied);
    expect(await non.put(`${path}/add-permission`, { add_permission: 'everyone' })).toMatchObject(denied);
    expect((await non.put(`${path}/self`, { otr_archived: true })).status).toBe(200);
    expect((await addUsers(dNon, conv, [x2])).refused).toMatchObject({ status: 403 });
    expect((await removeDevices(dNon, conv, [dOwner])).refused).toMatchObject({ status: 403 });

    // Made a team admin, they may; made a member again, they may not; an admin again deletes the channel.
    const role = (r: string) =>
      updateTeamMember(pub, owner.token, tid, { member: { user: nonAdmin.id, permissions: perms[r] } });
    expect((await role('admin')).status).toBe(200);
    expect((await non.put(`${path}/name`, { name: 'by admin' })).status).toBe(200);
    expect((await role('member')).status).toBe(200);
    expect(await non.put(`${path}/name`, { name: 'nope' })).toMatchObject(denied);
    expect((await role('admin')).status).toBe(200);
    expect((await deleteTeamConversation(pub, nonAdmin.token, tid, conv.id)).status).toBe(200);
  });
});

/** Wire's team role permission bits (self, copy). */
const perms: Record<string, { self: number; copy: number }> = {
  admin: { self: 5951, copy: 5951 },
  member: { self: 1587, copy: 1587 },
};
