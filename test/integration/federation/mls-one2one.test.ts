import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { MLS_ONE2ONE_NAMESPACE } from '../../../src/edge/galley/conversations/one2one-id.js';
import { A, B, type FederatedPair, startFederatedPair, usersWhoseOne2OneLivesOn } from '../../helpers/federation.js';
import {
  bytesOf,
  claimKeyPackages,
  type MlsDevice,
  mlsDevice,
  mlsEventsOf,
  uploadKeyPackages,
} from '../../helpers/mls.js';
import type { TestUser } from '../../helpers/users.js';
import { openSocket, type TestSocket } from '../../helpers/websocket.js';
import { putConnection } from '../../helpers/endpoints/brig.js';
import { getMLSPublicKeys, getOne2OneConversation, postMLSMessage } from '../../helpers/endpoints/galley.js';

const mlsEvent = (type: string, conv: string) => (m: any) =>
  m?.payload?.[0]?.type === type && m.payload[0].qualified_conversation?.id === conv;

/**
 * The MLS 1:1 of users of two backends lives on the backend its id picks (get-one2one-conversation):
 * the other backend asks it for the conversation and its removal keys, and commits go through it.
 */
describe('federation: MLS 1:1 conversations across two backends', () => {
  let pair: FederatedPair;
  beforeAll(async () => {
    pair = await startFederatedPair();
  });
  afterAll(async () => {
    await pair?.stop();
  });

  interface Side {
    device: MlsDevice;
    ws: TestSocket;
    base: string;
    domain: string;
  }

  /** A connected user on each backend, with a device each, whose 1:1 `owner` owns. */
  async function usersWithDevices(owner: string): Promise<{ onA: Side; onB: Side }> {
    const { onA, onB } = await usersWhoseOne2OneLivesOn(pair, MLS_ONE2ONE_NAMESPACE, owner);
    const side = async (base: string, domain: string, user: TestUser): Promise<Side> => {
      const device = await mlsDevice(base, user, 1, domain);
      await uploadKeyPackages(base, device, 1);
      const ws = await openSocket(base, `/v8/await?access_token=${device.token}&client=${device.client}`);
      onTestFinished(() => ws.close());
      return { device, ws, base, domain };
    };
    return { onA: await side(pair.a.publicUrl, A, onA), onB: await side(pair.b.publicUrl, B, onB) };
  }

  async function talk(owner: string, committerOnOwner: boolean) {
    const { onA, onB } = await usersWithDevices(owner);
    const fromA = await getOne2OneConversation(onA.base, onA.device.token, { domain: B, id: onB.device.user.id });
    const fromB = await getOne2OneConversation(onB.base, onB.device.token, { domain: A, id: onA.device.user.id });
    expect([fromA.status, fromB.status], fromA.text + fromB.text).toEqual([200, 200]);
    const conv = fromA.body.conversation;
    expect(conv).toMatchObject({ qualified_id: { domain: owner }, type: 2, epoch: 0 });
    expect(fromB.body.conversation).toMatchObject({ qualified_id: conv.qualified_id, group_id: conv.group_id });
    const [ownerSide, otherSide] = owner === A ? [onA, onB] : [onB, onA];
    const ownerKeys = await getMLSPublicKeys(ownerSide.base, ownerSide.device.token);
    expect(fromA.body.public_keys).toEqual(ownerKeys.body);
    expect(fromB.body.public_keys).toEqual(ownerKeys.body);

    const [first, second] = committerOnOwner ? [ownerSide, otherSide] : [otherSide, ownerSide];
    const groupId = bytesOf(conv.group_id);
    await first.device.mls.createConversation(groupId, bytesOf(ownerKeys.body.removal.ed25519));
    const packages = await claimKeyPackages(first.base, first.device, second.device.user, 1, second.domain);
    await first.device.mls.addClients(groupId, packages);
    expect(first.device.refused).toBeUndefined();
    const welcome = await second.ws.next(mlsEvent('conversation.mls-welcome', conv.qualified_id.id), 20_000);
    await second.device.mls.processWelcome(bytesOf(welcome.payload[0].data));
    // The added user hears of the join wherever they live: wire-server's owner tells their backend too.
    const joined = await second.ws.next(mlsEvent('conversation.member-join', conv.qualified_id.id));
    expect(joined.payload[0].data.users).toEqual([
      expect.objectContaining({ qualified_id: { id: second.device.user.id, domain: second.domain } }),
    ]);

    const hello = await second.device.mls.encrypt(groupId, 'hello one to one');
    expect((await postMLSMessage(second.base, second.device.token, hello)).status).toBe(201);
    const got = await first.ws.next(mlsEvent('conversation.mls-message-add', conv.qualified_id.id), 20_000);
    expect(await first.device.mls.decrypt(groupId, bytesOf(got.payload[0].data))).toMatchObject({
      text: 'hello one to one',
    });
    for (const side of [onA, onB]) {
      const seen = await getOne2OneConversation(side.base, side.device.token, {
        domain: side === onA ? B : A,
        id: (side === onA ? onB : onA).device.user.id,
      });
      expect(seen.body.conversation).toMatchObject({ qualified_id: conv.qualified_id, epoch: 1 });
      expect(seen.body.conversation.members.others).toHaveLength(1);
    }

    // The owner's user blocks the other: the other's messages, sent through the owner, no longer reach them.
    const blocked = await putConnection(
      ownerSide.base,
      ownerSide.device.token,
      { domain: otherSide.domain, id: otherSide.device.user.id },
      { status: 'blocked' },
    );
    expect(blocked.status, blocked.text).toBe(200);
    const before = (await mlsEventsOf(ownerSide.base, ownerSide.device)).length;
    const unwanted = await otherSide.device.mls.encrypt(groupId, 'you blocked me');
    expect((await postMLSMessage(otherSide.base, otherSide.device.token, unwanted)).status).toBe(201);
    expect(await mlsEventsOf(ownerSide.base, ownerSide.device)).toHaveLength(before);
  }

  it(
    'one owned by example.com: the user of b.example.com makes the first commit, through the owner',
    () => talk(A, false),
    60_000,
  );

  it(
    'one owned by b.example.com: its own user makes the first commit; example.com asks the owner',
    () => talk(B, true),
    60_000,
  );
});
