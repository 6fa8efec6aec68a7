import { ConnectionStatus } from '@wireapp/api-client/lib/connection/index.js';
import { proteus } from '@wireapp/protocol-messaging/web/otr.js';
import Long from 'long';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otrOf, ProteusMember } from '../../helpers/api-client.js';
import { A, B, startFederatedPair, type FederatedPair } from '../../helpers/federation.js';

/** Encrypts `text` for each client of `to` (one per backend) with prekeys claimed through the library. */
async function encryptedFor(from: ProteusMember, to: ProteusMember, text: string) {
  const wanted = { [to.domain]: { [to.id]: [to.client] } };
  const bundles = await from.as(() => from.api.api.user.postMultiPreKeyBundles(wanted));
  const prekey = (bundles as any).qualified_user_client_prekeys[to.domain][to.id][to.client];
  return proteus.QualifiedNewOtrMessage.create({
    sender: { client: Long.fromString(from.client, true, 16) },
    recipients: [
      {
        domain: to.domain,
        entries: [
          {
            user: { uuid: Buffer.from(to.id.replace(/-/g, ''), 'hex') },
            clients: [
              { client: { client: Long.fromString(to.client, true, 16) }, text: from.device.encryptFor(prekey, text) },
            ],
          },
        ],
      },
    ],
    reportAll: {},
  });
}

/** The official client library on each of two backends: connect, share a conversation, message both ways. */
describe('federation: @wireapp/api-client on two backends', () => {
  let pair: FederatedPair;
  let alice: ProteusMember;
  let bob: ProteusMember;

  beforeAll(async () => {
    pair = await startFederatedPair();
    alice = await ProteusMember.join(pair.a, A, 'Alice');
    bob = await ProteusMember.join(pair.b, B, 'Bob');
  });
  afterAll(async () => {
    alice?.api.disconnect();
    bob?.api.disconnect();
    await pair?.stop();
  });

  it('Alice on example.com and Bob on b.example.com exchange encrypted Proteus messages', async () => {
    await alice.as(() => alice.api.api.connection.postConnection(bob.qid));
    await bob.as(() => bob.api.api.connection.putConnection(alice.qid, { status: ConnectionStatus.ACCEPTED }));
    const conv = await alice.as(() =>
      alice.api.api.conversation.postConversation({ name: 'across', qualified_users: [bob.qid] } as never),
    );
    const convId = conv.qualified_id!;
    expect(convId.domain).toBe(A);

    const atBob = bob.arrival(otrOf);
    const atAlice = alice.arrival(otrOf);
    await bob.listen();
    await alice.listen();

    const empty = proteus.QualifiedNewOtrMessage.create({
      sender: { client: Long.fromString(alice.client, true, 16) },
      recipients: [],
      reportAll: {},
    });
    const refused = await alice
      .as(() => alice.api.api.conversation.postOTRMessage(convId.id, A, empty))
      .catch((e) => e);
    expect(refused.response?.status).toBe(412);
    expect(refused.response.data.missing).toEqual({ [B]: { [bob.id]: [bob.client] } });

    const sent = await alice.as(async () =>
      alice.api.api.conversation.postOTRMessage(convId.id, A, await encryptedFor(alice, bob, 'hello from A')),
    );
    expect(sent.missing).toEqual({});
    expect(sent.failed_to_confirm_clients ?? {}).toEqual({});
    const arrived = await atBob;
    expect(arrived.data).toMatchObject({ sender: alice.client, recipient: bob.client });
    expect(await bob.device.decrypt(arrived.data.text)).toBe('hello from A');

    const reply = await bob.as(async () =>
      bob.api.api.conversation.postOTRMessage(convId.id, A, await encryptedFor(bob, alice, 'hello from B')),
    );
    expect(reply.missing).toEqual({});
    const answered = await atAlice;
    expect(answered.data).toMatchObject({ sender: bob.client, recipient: alice.client });
    expect(await alice.device.decrypt(answered.data.text)).toBe('hello from B');
  }, 90_000);
});
