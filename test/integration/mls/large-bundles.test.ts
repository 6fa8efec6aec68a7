import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { noise } from '../../helpers/bytes.js';
import { wireError } from '../../helpers/http.js';
import {
  alteredCommit,
  bundleBody,
  bytesOf,
  joiner,
  TsMlsGroup,
  type TsMlsDevice,
  tsMlsDevice,
  unregisteredKeys,
} from '../../helpers/ts-mls-crafted.js';
import { connect, createUser, type TestUser } from '../../helpers/users.js';
import { postMLSCommitBundle } from '../../helpers/endpoints/galley.js';
import { getNotifications } from '../../helpers/endpoints/gundeck.js';

const { publicUrl, internalUrl } = sharedBackend();

const MiB = 1024 * 1024;

/** The `data` of the last event of this type in the device's notifications (the message, base64). */
async function lastData(d: TsMlsDevice, type: string): Promise<string | undefined> {
  const seen = await getNotifications(publicUrl, d.token, { client: d.client, size: 100 });
  expect(seen.status, seen.text).toBe(200);
  const events: Array<{ type: string; data: string }> = seen.body.notifications.flatMap(
    (n: { payload: Array<{ type: string; data: string }> }) => n.payload,
  );
  return events.filter((e) => e.type === type).at(-1)?.data;
}

/**
 * Commit bundles past the 2 MB a stored row holds, as a large group's are (a 10,000-member
 * group's update commit is about 3.5 MB, its GroupInfo 0.8 MB, more with x509 credentials): taken,
 * stored in parts, delivered and served byte for byte.
 */
describe('MLS commit bundles larger than a row', () => {
  let a1: TsMlsDevice;
  let b1: TsMlsDevice;
  beforeAll(async () => {
    const [alice, bob] = await Promise.all([createUser(publicUrl, internalUrl), createUser(publicUrl, internalUrl)]);
    await connect(publicUrl, alice, bob);
    [a1, b1] = await Promise.all([tsMlsDevice(publicUrl, alice), tsMlsDevice(publicUrl, bob)]);
  });

  it('takes a 5 MB bundle, delivers its commit whole and serves its GroupInfo byte for byte', async () => {
    const group = await TsMlsGroup.create(publicUrl, a1);
    await group.commit(a1, { add: [b1] });
    const big = await group.prepare(a1, {
      authenticatedData: noise(2.5 * MiB),
      groupInfoExtensions: [{ extensionType: 0xf0a1, extensionData: noise(2.5 * MiB) }],
    });
    const commit = bytesOf(big.commit);
    const groupInfo = bytesOf(big.groupInfo);
    expect(commit.length + groupInfo.length).toBeGreaterThan(5 * MiB);
    // Sent, and taken by the other member: its client processes the commit it was delivered.
    await group.send(big);

    expect(await lastData(b1, 'conversation.mls-message-add')).toBe(Buffer.from(commit).toString('base64'));

    const served = await fetch(`${publicUrl}/v8/conversations/example.com/${group.conv.id}/groupinfo`, {
      headers: { authorization: `Bearer ${b1.token}` },
    });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(groupInfo.subarray(4)))).toBe(true);

    // The group goes on from its new epoch.
    await group.commit(a1);
  });

  it('delivers a Welcome larger than a row byte for byte, and the added client joins by it', async () => {
    const carol = await createUser(publicUrl, internalUrl);
    await connect(publicUrl, a1.user, carol);
    const c1 = await tsMlsDevice(publicUrl, carol);
    const group = await TsMlsGroup.create(publicUrl, a1);
    const big = await group.prepare(a1, {
      add: [c1],
      welcomeExtensions: [{ extensionType: 0xf0a1, extensionData: noise(2.5 * MiB) }],
    });
    const welcome = bytesOf(big.welcome!);
    expect(welcome.length).toBeGreaterThan(2.5 * MiB);
    // Sent; the added client joins by the Welcome it was delivered (send checks the join).
    await group.send(big);

    expect(await lastData(c1, 'conversation.mls-welcome')).toBe(Buffer.from(welcome).toString('base64'));
    await group.commit(c1);
  });

  it('refuses a bundle past the ingress limit for commit bundles with 413 and Wire’s error', async () => {
    const r = await postMLSCommitBundle(publicUrl, a1.token, noise(16 * MiB + 1));
    expect(r).toMatchObject({ status: 413, body: wireError(413, 'client-error') });
  });

  it('refuses a commit adding clients of more than 2,000 users with 413, before asking for any user', async () => {
    const group = await TsMlsGroup.create(publicUrl, a1);
    // Users nobody registered: were any of them looked up, the commit would get 409 mls-client-mismatch.
    const keys = await unregisteredKeys();
    const strangers = await Promise.all(
      Array.from({ length: 2001 }, () =>
        joiner({ user: { id: crypto.randomUUID() } as TestUser, client: 'c0ffee', token: '', keys }),
      ),
    );
    // A commit adding one, its proposals then replaced by 2,001 adds (the signature, checked last, is not made again).
    const one = await group.prepare(a1, { add: strangers.slice(0, 1) });
    const many = alteredCommit(one.commit, (commit) => ({
      ...commit,
      proposals: strangers.map((s) => ({
        proposalOrRefType: 'proposal' as const,
        proposal: { proposalType: 'add' as const, add: { keyPackage: s.publicPackage } },
      })),
    }));
    const r = await group.post(one, { body: bundleBody({ ...one, commit: many }) });
    expect(r).toMatchObject({ status: 413, body: wireError(413, 'client-error') });
    expect(r.body.message).toContain('at most 2000 users');
  }, 60_000);
});
