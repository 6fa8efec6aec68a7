import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEditedBackend, type TestBackend } from '../../helpers/backend.js';
import { wireError } from '../../helpers/http.js';
import { bytesOf, claimKeyPackages, type MlsDevice, mlsDevice, uploadKeyPackages } from '../../helpers/mls.js';
import { api, connect, createUser, type TestUser } from '../../helpers/users.js';
import { disabledEverywhere } from '../../helpers/versions.js';

// POST /mls/reset-conversation is v9, the development version: this backend enables it.
describe('POST /mls/reset-conversation', () => {
  let b: TestBackend;
  let alice: TestUser;
  let bob: TestUser;
  let a: MlsDevice;
  let bd: MlsDevice;
  beforeAll(async () => {
    b = await startEditedBackend(disabledEverywhere([]));
    [alice, bob] = [await createUser(b.publicUrl, b.internalUrl), await createUser(b.publicUrl, b.internalUrl)];
    await connect(b.publicUrl, alice, bob);
    [a, bd] = [await mlsDevice(b.publicUrl, alice), await mlsDevice(b.publicUrl, bob)];
    await uploadKeyPackages(b.publicUrl, bd, 2);
  });
  afterAll(() => b?.stop());

  it('starts the group again under the next generation’s group id, given its current epoch', async () => {
    const created = await api(b.publicUrl, a.token).post('/v9/conversations', {
      protocol: 'mls',
      name: 'R',
      qualified_users: [],
    });
    const id = created.body.qualified_id.id as string;
    const groupId = created.body.group_id as string;
    const removal = bytesOf((await api(b.publicUrl, a.token).get('/v9/mls/public-keys')).body.removal.ed25519);
    await a.mls.createConversation(bytesOf(groupId), removal);
    await a.mls.addClients(bytesOf(groupId), await claimKeyPackages(b.publicUrl, a, bob));
    expect(a.refused).toBeUndefined();

    const reset = (epoch: number, group = groupId) =>
      api(b.publicUrl, bob.token).post('/v9/mls/reset-conversation', { group_id: group, epoch });
    expect(await reset(0)).toMatchObject({ status: 409, body: wireError(409, 'mls-stale-message') });
    expect((await reset(1)).status).toBe(200);

    const after = (await api(b.publicUrl, alice.token).get(`/v9/conversations/example.com/${id}`)).body;
    expect(after.epoch).toBe(0);
    expect(after.group_id).not.toBe(groupId);
    expect(after.members.others.map((m: any) => m.qualified_id.id)).toEqual([bob.id]); // membership stays
    const events = (await api(b.publicUrl, alice.token).get('/v9/notifications?size=1000')).body.notifications
      .flatMap((n: any) => n.payload)
      .filter((e: any) => e.type === 'conversation.mls-reset');
    expect(events.at(-1)).toMatchObject({
      conversation: id,
      data: { group_id: groupId, new_group_id: after.group_id },
    });

    // The old group id names nothing any more; the new group starts from a first commit.
    expect((await reset(1)).status).toBe(404);
    await a.mls.createConversation(bytesOf(after.group_id), removal);
    await a.mls.addClients(bytesOf(after.group_id), await claimKeyPackages(b.publicUrl, a, bob));
    expect(a.refused).toBeUndefined();
  });
});
