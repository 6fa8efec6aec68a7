import { ClientType } from '@wireapp/api-client/lib/client/index.js';
import { FeatureStatus } from '@wireapp/api-client/lib/team/feature/index.js';
import { describe, expect, it } from 'vitest';
import { Account } from '../../helpers/api-client.js';
import { sharedBackend } from '../../helpers/backend.js';
import { invitationCode } from '../../helpers/mailbox.js';
import { activationCode, api, createUser, uniqueEmail } from '../../helpers/users.js';

const { publicUrl, internalUrl } = sharedBackend();
const password = 'secret-password';

describe('a team run with the official @wireapp/api-client', () => {
  it('owner registers a team, invites a new and an existing user, both join; a locked feature stays locked', async () => {
    const owner = new Account(publicUrl);
    const member = new Account(publicUrl);
    await owner.api.useVersion(0, 9);
    await member.api.useVersion(0, 9);
    const email = uniqueEmail('team-owner');
    expect((await api(publicUrl).post('/v8/activate/send', { email })).status).toBe(200);
    const email_code = await activationCode(internalUrl, email);
    await owner.as(() => owner.api.register({ name: 'Owner', email, email_code, password, team: { name: 'Acme', icon: 'default' } } as never));
    await owner.as(() => owner.api.login({ email, password, clientType: ClientType.PERMANENT }));
    const teamId = (await owner.as(() => owner.api.api.self.getSelf())).team!;
    expect(teamId).toMatch(/^[0-9a-f-]{36}$/);

    // A new address: invited, registers with the code.
    const memberEmail = uniqueEmail('team-member');
    const invitation = await owner.as(() => owner.api.api.teams.invitation.postInvitation(teamId, { email: memberEmail, role: 'member' } as never));
    expect(invitation).toMatchObject({ team: teamId, email: memberEmail });
    const code = await invitationCode(publicUrl, memberEmail);
    expect(await member.api.api.teams.invitation.getInvitationFromCode(code)).toMatchObject({ id: invitation.id, created_by_email: email });
    await member.as(() => member.api.register({ name: 'Member', email: memberEmail, password, team_code: code } as never));
    await member.as(() => member.api.login({ email: memberEmail, password, clientType: ClientType.PERMANENT }));

    // An existing personal user: invited with allow_existing, accepts with the password.
    const personal = await createUser(publicUrl, internalUrl);
    await owner.as(() => owner.api.api.teams.invitation.postInvitation(teamId, { email: personal.email, allow_existing: true } as never));
    expect((await api(publicUrl, personal.token).post('/v8/teams/invitations/accept', { code: await invitationCode(publicUrl, personal.email), password: personal.password })).status).toBe(200);

    const members = await owner.as(() => owner.api.api.teams.member.getAllMembers(teamId));
    expect(members.members.map((m) => m.user).sort()).toEqual([owner.api.context!.userId, member.api.context!.userId, personal.id].sort());

    // The owner turns file sharing off; an operator locks it; the owner cannot change it any more.
    const off = await owner.as(() => owner.api.api.teams.feature.putFileSharingFeature(teamId, { status: FeatureStatus.DISABLED } as never));
    expect(off).toMatchObject({ status: 'disabled', lockStatus: 'unlocked' });
    expect((await member.as(() => member.api.api.teams.feature.getAllFeatures())).fileSharing).toMatchObject({ status: 'disabled' });
    expect((await api(internalUrl).patch(`/i/teams/${teamId}/features/fileSharing`, { status: 'disabled', lockStatus: 'locked' })).status).toBe(200);
    await expect(owner.as(() => owner.api.api.teams.feature.putFileSharingFeature(teamId, { status: FeatureStatus.ENABLED } as never))).rejects.toMatchObject({
      name: 'FeatureLockedError',
    });
    // As in wire-server, a locked feature shows the server's value (file sharing on by default).
    expect((await member.as(() => member.api.api.teams.feature.getAllFeatures())).fileSharing).toMatchObject({ status: 'enabled', lockStatus: 'locked' });
  });
});
