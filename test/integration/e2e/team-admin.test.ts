import { ClientType } from '@wireapp/api-client/lib/client/index.js';
import { FeatureStatus } from '@wireapp/api-client/lib/team/feature/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Account } from '../../helpers/api-client.js';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import type { Edit } from '../../helpers/config-files.js';
import { invitationCode } from '../../helpers/mailbox.js';
import { activationCode, api, createUser, uniqueEmail } from '../../helpers/users.js';
import { acceptTeamInvitation, postActivateSend } from '../../helpers/endpoints/brig.js';

const password = 'secret-password';
// File sharing is off by this server's default, so that a lock keeps it off.
const fileSharingOff: Edit = [
  'galley.yaml',
  ['settings', 'featureFlags', 'fileSharing', 'defaults'],
  { status: 'disabled', lockStatus: 'unlocked' },
];
let backend: TestBackend;
let publicUrl: string;
let internalUrl: string;

beforeAll(async () => {
  backend = await startEditedBackend([fileSharingOff]);
  ({ publicUrl, internalUrl } = backend);
});
afterAll(() => backend?.stop());

describe('a team run with the official @wireapp/api-client', () => {
  it('owner registers a team, invites a new and an existing user, both join; a locked feature refuses their files', async () => {
    const owner = new Account(publicUrl);
    const member = new Account(publicUrl);
    await owner.api.useVersion(0, 9);
    await member.api.useVersion(0, 9);
    const email = uniqueEmail('team-owner');
    expect((await postActivateSend(publicUrl, { email })).status).toBe(200);
    const email_code = await activationCode(internalUrl, email);
    await owner.as(() =>
      owner.api.register({
        name: 'Owner',
        email,
        email_code,
        password,
        team: { name: 'Acme', icon: 'default' },
      } as never),
    );
    await owner.as(() => owner.api.login({ email, password, clientType: ClientType.PERMANENT }));
    const teamId = (await owner.as(() => owner.api.api.self.getSelf())).team!;
    expect(teamId).toMatch(/^[0-9a-f-]{36}$/);

    // A new address: invited, registers with the code.
    const memberEmail = uniqueEmail('team-member');
    const invitation = await owner.as(() =>
      owner.api.api.teams.invitation.postInvitation(teamId, { email: memberEmail, role: 'member' } as never),
    );
    expect(invitation).toMatchObject({ team: teamId, email: memberEmail });
    const code = await invitationCode(publicUrl, memberEmail);
    expect(await member.api.api.teams.invitation.getInvitationFromCode(code)).toMatchObject({
      id: invitation.id,
      created_by_email: email,
    });
    await member.as(() =>
      member.api.register({ name: 'Member', email: memberEmail, password, team_code: code } as never),
    );
    await member.as(() => member.api.login({ email: memberEmail, password, clientType: ClientType.PERMANENT }));

    // An existing personal user: invited with allow_existing, accepts with the password.
    const personal = await createUser(publicUrl, internalUrl);
    await owner.as(() =>
      owner.api.api.teams.invitation.postInvitation(teamId, { email: personal.email, allow_existing: true } as never),
    );
    expect(
      (
        await acceptTeamInvitation(publicUrl, personal.token, {
          code: await invitationCode(publicUrl, personal.email),
          password: personal.password,
        })
      ).status,
    ).toBe(200);

    const members = await owner.as(() => owner.api.api.teams.member.getAllMembers(teamId));
    expect(members.members.map((m) => m.user).sort()).toEqual(
      [owner.api.context!.userId, member.api.context!.userId, personal.id].sort(),
    );

    // File sharing, off by this server's default: the owner turns it on and the member shares a file.
    const upload = () =>
      member.as(() => member.api.api.asset.postAsset(new Uint8Array([1, 2, 3]), { public: false }).response);
    await expect(upload()).rejects.toMatchObject({ code: 403, label: 'file-sharing-disabled' });
    const on = await owner.as(() =>
      owner.api.api.teams.feature.putFileSharingFeature(teamId, { status: FeatureStatus.ENABLED } as never),
    );
    expect(on).toMatchObject({ status: 'enabled', lockStatus: 'unlocked' });
    const shared = await upload();
    const file = await owner.as(
      () => owner.api.api.asset.getAssetV4(shared.key, shared.domain!, shared.token).response,
    );
    expect(new Uint8Array(file.buffer)).toEqual(new Uint8Array([1, 2, 3]));

    // An operator locks it: the server's value (disabled) applies, uploads are refused, and the
    // owner can change nothing until the internal API unlocks it.
    expect((await api(internalUrl).put(`/i/teams/${teamId}/features/fileSharing/locked`)).status).toBe(200);
    expect((await member.as(() => member.api.api.teams.feature.getAllFeatures())).fileSharing).toMatchObject({
      status: 'disabled',
      lockStatus: 'locked',
    });
    await expect(upload()).rejects.toMatchObject({ code: 403, label: 'file-sharing-disabled' });
    await expect(
      owner.as(() =>
        owner.api.api.teams.feature.putFileSharingFeature(teamId, { status: FeatureStatus.ENABLED } as never),
      ),
    ).rejects.toMatchObject({
      name: 'FeatureLockedError',
    });
    expect((await api(internalUrl).put(`/i/teams/${teamId}/features/fileSharing/unlocked`)).status).toBe(200);
    expect((await member.as(() => member.api.api.teams.feature.getAllFeatures())).fileSharing).toMatchObject({
      status: 'enabled',
      lockStatus: 'unlocked',
    });
    expect((await upload()).key).toMatch(/^3-2-/);
  });
});
