import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { call, wireError } from '../../helpers/http.js';
import {
  api,
  connect,
  createUser,
  invitedMember,
  type TeamOwner,
  teamOwner,
  type TestUser,
} from '../../helpers/users.js';
import { getConversation, postConversation, putConversationProtocol } from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();

describe('PUT /conversations/{cnv_domain}/{cnv}/protocol', () => {
  let owner: TeamOwner;
  let member: TestUser;
  beforeAll(async () => {
    owner = await teamOwner(publicUrl, internalUrl);
    member = await invitedMember(publicUrl, owner);
  });

  const teamConversation = async () =>
    (
      await postConversation(publicUrl, owner.token, {
        name: 'Migrating',
        qualified_users: [{ id: member.id, domain: 'example.com' }],
        team: { teamid: owner.team, managed: false },
      })
    ).body.qualified_id.id as string;
  const put = (u: TestUser, conv: string, protocol: string) =>
    putConversationProtocol(publicUrl, u.token, { domain: 'example.com', id: conv }, { protocol });

  it('moves a team conversation from Proteus to mixed, then to MLS once the migration criteria are met', async () => {
    const conv = await teamConversation();
    const mixed = await put(member, conv, 'mixed');
    expect(mixed.status, mixed.text).toBe(200);
    expect(mixed.body).toMatchObject({ type: 'conversation.protocol-update', data: { protocol: 'mixed' } });
    const seen = (await getConversation(publicUrl, owner.token, { domain: 'example.com', id: conv })).body;
    expect(seen).toMatchObject({ protocol: 'mixed', epoch: 0 });
    expect(typeof seen.group_id).toBe('string');
    expect((await put(owner, conv, 'mixed')).status).toBe(204);

    // The team's mlsMigration feature is off: the criteria are not met.
    expect(await put(owner, conv, 'mls')).toMatchObject({
      status: 400,
      body: wireError(400, 'mls-migration-criteria-not-satisfied'),
    });
    const features = `/v8/teams/${owner.team}/features`;
    const mlsConfig = {
      protocolToggleUsers: [],
      defaultProtocol: 'proteus',
      supportedProtocols: ['proteus', 'mls'],
      allowedCipherSuites: [1, 2],
      defaultCipherSuite: 2,
    };
    expect(
      (await api(publicUrl, owner.token).put(`${features}/mls`, { status: 'enabled', config: mlsConfig })).status,
    ).toBe(200);
    const unlock = await call(internalUrl, `/i/teams/${owner.team}/features/mlsMigration/unlocked`, { method: 'PUT' });
    expect(unlock.status).toBe(200);
    const migration = { status: 'enabled', config: { finaliseRegardlessAfter: '2020-01-01T00:00:00Z' } };
    expect((await api(publicUrl, owner.token).put(`${features}/mlsMigration`, migration)).status).toBe(200);
    expect((await put(owner, conv, 'mls')).status).toBe(200);
    expect((await getConversation(publicUrl, owner.token, { domain: 'example.com', id: conv })).body.protocol).toBe(
      'mls',
    );
    expect(await put(owner, conv, 'mixed')).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-protocol-transition'),
    });
  });

  it('refuses conversations outside a team', async () => {
    const [a, b] = [await createUser(publicUrl, internalUrl), await createUser(publicUrl, internalUrl)];
    await connect(publicUrl, a, b);
    const conv = (
      await postConversation(publicUrl, a.token, {
        qualified_users: [{ id: b.id, domain: 'example.com' }],
      })
    ).body.qualified_id.id;
    expect(await put(a, conv, 'mixed')).toMatchObject({
      status: 403,
      body: wireError(403, 'invalid-protocol-transition'),
    });
  });
});
