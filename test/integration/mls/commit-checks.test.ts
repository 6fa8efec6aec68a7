import type { Proposal } from 'ts-mls';
import { encodeKeyPackage } from 'ts-mls/keyPackage.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedBackend } from '../../helpers/backend.js';
import { type Reply, wireError } from '../../helpers/http.js';
import {
  alteredCommit,
  applicationMessage,
  bundleBody,
  bytesOf,
  type Joiner,
  joiner,
  removingOnly,
  TsMlsGroup,
  type TsMlsDevice,
  tsMlsDevice,
  unregisteredKeys,
  withBrokenPathLeafSignature,
  withBrokenSignature,
  withoutPath,
  withSignatureKeys,
} from '../../helpers/ts-mls-crafted.js';
import { connect, createUser, type TestUser } from '../../helpers/users.js';
import { uploadKeyPackages } from '../../helpers/endpoints/brig.js';
import { postMLSMessage } from '../../helpers/endpoints/galley.js';

const { publicUrl, internalUrl } = sharedBackend();

/** A proposal that changes nothing the backend acts on (no extensions in the group context). */
const noExtensions: Proposal = { proposalType: 'group_context_extensions', groupContextExtensions: { extensions: [] } };

/**
 * Runs an attempt the backend must refuse with this status and label, and checks that it changed
 * nothing the backend shows: epoch, members, stored GroupInfo, notifications of the members.
 */
async function expectRefused(group: TsMlsGroup, attempt: () => Promise<Reply>, status: number, label: string) {
  const before = await group.view();
  const answer = await attempt();
  expect({ status: answer.status, body: answer.body }, answer.text).toMatchObject({
    status,
    body: wireError(status, label),
  });
  expect(await group.view()).toEqual(before);
}

const postMessage = (d: TsMlsDevice, message: Uint8Array) => postMLSMessage(publicUrl, d.token, message);

let alice: TestUser;
let a1: TsMlsDevice;
let a2: TsMlsDevice;
let b1: TsMlsDevice;
let b2: TsMlsDevice;
let c1: TsMlsDevice;
/** A client of dave, whom alice is not connected to. */
let d1: TsMlsDevice;
beforeAll(async () => {
  const [bob, carol, dave] = await Promise.all([
    createUser(publicUrl, internalUrl),
    createUser(publicUrl, internalUrl),
    createUser(publicUrl, internalUrl),
  ]);
  alice = await createUser(publicUrl, internalUrl);
  await connect(publicUrl, alice, bob);
  await connect(publicUrl, alice, carol);
  a1 = await tsMlsDevice(publicUrl, alice);
  a2 = await tsMlsDevice(publicUrl, alice);
  b1 = await tsMlsDevice(publicUrl, bob);
  b2 = await tsMlsDevice(publicUrl, bob);
  c1 = await tsMlsDevice(publicUrl, carol);
  d1 = await tsMlsDevice(publicUrl, dave);
});

/** A group of alice's first client (the conversation's admin) and both clients of bob, at epoch 1. */
async function aliceAndBob(): Promise<TsMlsGroup> {
  const group = await TsMlsGroup.create(publicUrl, a1);
  await group.commit(a1, { add: [b1, b2] });
  return group;
}

describe('MLS commit checks: a refused commit changes nothing, and the group’s next commit is taken', () => {
  it('409 mls-stale-message: a commit of an epoch that has passed', async () => {
    const group = await TsMlsGroup.create(publicUrl, a1);
    const addBob = await group.prepare(a1, { add: [b1, b2] });
    const addCarol = await group.prepare(a1, { add: [c1] }); // also of epoch 0
    await group.send(addBob);
    await expectRefused(group, () => group.post(addCarol), 409, 'mls-stale-message');
    await group.commit(a1, { add: [c1] });
    expect((await group.view()).epoch).toBe(2);
  });

  it('409 mls-stale-message: an application message of an epoch the group has not reached', async () => {
    const group = await aliceAndBob();
    const next = await group.prepare(a1); // held back: the group stays at epoch 1
    const early = await applicationMessage(next.newState, 'from epoch 2');
    await expectRefused(group, () => postMessage(a1, early), 409, 'mls-stale-message');
    await group.send(next);
    // In epoch 2 the same message is on time.
    expect((await postMessage(a1, early)).status).toBe(201);
  });

  it('409 mls-stale-message: an application message more than two epochs old', async () => {
    const group = await aliceAndBob();
    const atEpoch1 = group.stateOf(a1);
    await group.commit(a1);
    const atEpoch2 = group.stateOf(a1);
    await group.commit(a1);
    await group.commit(a1);
    expect((await group.view()).epoch).toBe(4);
    const late = await applicationMessage(atEpoch1, 'from epoch 1');
    await expectRefused(group, () => postMessage(a1, late), 409, 'mls-stale-message');
    // Two epochs back is still taken.
    expect((await postMessage(a1, await applicationMessage(atEpoch2, 'from epoch 2'))).status).toBe(201);
    await group.commit(a1);
  });

  it('404 mls-proposal-not-found: a commit referencing a proposal the backend never saw', async () => {
    const group = await aliceAndBob();
    const lost = await group.propose(b1, noExtensions); // bob never sends it
    await group.receive([a1], lost);
    const byReference = await group.prepare(a1);
    await expectRefused(group, () => group.post(byReference), 404, 'mls-proposal-not-found');
    // Once the backend has the proposal, the same commit is taken.
    expect((await postMessage(b1, lost)).status).toBe(201);
    await group.receive([b2], lost);
    await group.send(byReference);
  });

  it('400 mls-commit-missing-references: a commit leaving out a pending proposal', async () => {
    const group = await aliceAndBob();
    const proposal = await group.propose(b1, noExtensions);
    expect((await postMessage(b1, proposal)).status).toBe(201);
    const without = await group.prepare(a1); // alice has not seen the proposal
    await expectRefused(group, () => group.post(without), 400, 'mls-commit-missing-references');
    await group.receive([a1, b2], proposal);
    await group.commit(a1);
  });

  it('409 mls-client-mismatch: removing one of the two clients of a user who stays', async () => {
    const group = await aliceAndBob();
    await expectRefused(
      group,
      async () => group.post(await group.prepare(a1, { remove: [b1] })),
      409,
      'mls-client-mismatch',
    );
    await group.commit(a1, { remove: [b1, b2] });
    expect((await group.view()).members).toEqual([alice.id]);
  });

  it('400 mls-self-removal-not-allowed: the committer removes a client of its own user', async () => {
    const group = await TsMlsGroup.create(publicUrl, a1);
    await group.commit(a1, { add: [a2, b1, b2] });
    await expectRefused(
      group,
      async () => group.post(await group.prepare(a1, { remove: [a2] })),
      400,
      'mls-self-removal-not-allowed',
    );
    await group.commit(a1);
  });

  it('403 mls-identity-mismatch: an added key package signed with a key its client did not register', async () => {
    const group = await aliceAndBob();
    const forged = await joiner(c1, await unregisteredKeys());
    await expectRefused(
      group,
      async () => group.post(await group.prepare(a1, { add: [forged] })),
      403,
      'mls-identity-mismatch',
    );
    await group.commit(a1, { add: [c1] });
  });

  it('403 mls-identity-mismatch: a path leaf with another key than the committer registered', async () => {
    const group = await aliceAndBob();
    const rotated = withSignatureKeys(group.stateOf(a1), await unregisteredKeys());
    await expectRefused(
      group,
      async () => group.post(await group.prepare(a1, { state: rotated })),
      403,
      'mls-identity-mismatch',
    );
    await group.commit(a1);
  });

  it('400 mls-invalid-leaf-node-index: a commit removing a leaf that was vacated', async () => {
    const group = await TsMlsGroup.create(publicUrl, a1);
    await group.commit(a1, { add: [b1, b2, c1] });
    const vacated = group.leafOf(b1);
    await group.commit(a1, { remove: [b1, b2] });
    const update = await group.prepare(a1);
    const removesVacated = alteredCommit(update.commit, removingOnly(vacated));
    await expectRefused(
      group,
      () => group.post(update, { body: bundleBody({ ...update, commit: removesVacated }) }),
      400,
      'mls-invalid-leaf-node-index',
    );
    await group.send(update);
  });

  it('400 mls-client-sender-user-mismatch: a commit sent with another client’s token than its sender leaf', async () => {
    const group = await aliceAndBob();
    const update = await group.prepare(a1);
    await expectRefused(group, () => group.post(update, { token: b1.token }), 400, 'mls-client-sender-user-mismatch');
    await group.send(update);
  });

  it('400 mls-client-sender-user-mismatch: the same for a commit without update path', async () => {
    const group = await aliceAndBob();
    const addA2 = await group.prepare(a1, { add: [a2] });
    const pathless = alteredCommit(addA2.commit, withoutPath);
    await expectRefused(
      group,
      () => group.post(addA2, { token: b1.token, body: bundleBody({ ...addA2, commit: pathless }) }),
      400,
      'mls-client-sender-user-mismatch',
    );
    await group.send(addA2);
  });

  it('400 mls-invalid-leaf-node-signature: a path leaf whose signature is broken', async () => {
    const group = await aliceAndBob();
    const update = await group.prepare(a1);
    const broken = alteredCommit(update.commit, withBrokenPathLeafSignature);
    await expectRefused(
      group,
      () => group.post(update, { body: bundleBody({ ...update, commit: broken }) }),
      400,
      'mls-invalid-leaf-node-signature',
    );
    await group.send(update);
  });

  it('400 mls-protocol-error: a commit that is not what its sender signed, or whose signature is broken', async () => {
    const group = await aliceAndBob();
    const update = await group.prepare(a1);
    const pathless = alteredCommit(update.commit, withoutPath); // valid in every other respect
    const body = (commit: typeof update.commit) => bundleBody({ ...update, commit });
    await expectRefused(group, () => group.post(update, { body: body(pathless) }), 400, 'mls-protocol-error');
    await expectRefused(
      group,
      () => group.post(update, { body: body(withBrokenSignature(update.commit)) }),
      400,
      'mls-protocol-error',
    );
    await group.send(update);
  });

  it('400 mls-protocol-error: a GroupInfo another member made, not the committer', async () => {
    const group = await aliceAndBob();
    const addCarol = await group.prepare(a1, { add: [c1] });
    const byBob = await group.prepare(b1); // its GroupInfo is of the same epoch, signed at Bob's leaf
    await expectRefused(
      group,
      () => group.post(addCarol, { body: bundleBody({ ...addCarol, groupInfo: byBob.groupInfo }) }),
      400,
      'mls-protocol-error',
    );
    await group.send(addCarol);
  });

  it('400 mls-protocol-error: a bundle without GroupInfo', async () => {
    const group = await aliceAndBob();
    const addCarol = await group.prepare(a1, { add: [c1] });
    await expectRefused(
      group,
      () => group.post(addCarol, { body: bundleBody({ commit: addCarol.commit, welcome: addCarol.welcome }) }),
      400,
      'mls-protocol-error',
    );
    await group.send(addCarol);
  });

  it('422 mls-unsupported-message: a commit posted to /mls/messages', async () => {
    const group = await aliceAndBob();
    const update = await group.prepare(a1);
    await expectRefused(group, () => postMessage(a1, bytesOf(update.commit)), 422, 'mls-unsupported-message');
    await group.send(update);
  });

  it('400 mls-protocol-error: an application message at epoch 0', async () => {
    const group = await TsMlsGroup.create(publicUrl, a1);
    const early = await applicationMessage(group.stateOf(a1), 'before the first commit');
    await expectRefused(group, () => postMessage(a1, early), 400, 'mls-protocol-error');
    await group.commit(a1, { add: [b1, b2] });
  });

  it('403 action-denied: a member who is not admin removes another user', async () => {
    const group = await TsMlsGroup.create(publicUrl, a1);
    await group.commit(a1, { add: [b1, b2, c1] });
    await expectRefused(group, async () => group.post(await group.prepare(b1, { remove: [c1] })), 403, 'action-denied');
    await group.commit(b1); // bob may still commit (an update)
    await group.commit(a1, { remove: [c1] }); // and alice, an admin, may remove carol
    expect((await group.view()).members).toEqual([alice.id, b1.user.id].sort());
  });
});

/**
 * wire-server checks the clients a commit adds (`checkClients`, the member-join on the committer's
 * behalf) whether the Add is inline or a pending proposal it references. A refused proposal stays
 * pending, so every commit of that epoch must reference it: no next commit is tried here.
 */
describe('Add proposals committed by reference are checked as inline Adds are', () => {
  /** `by` proposes to add a client; the backend takes the proposal, and the group's other members receive it. */
  async function proposedAdd(group: TsMlsGroup, by: TsMlsDevice, added: Joiner) {
    const proposal = await group.propose(by, { proposalType: 'add', add: { keyPackage: added.publicPackage } });
    expect((await postMessage(by, proposal)).status).toBe(201);
    await group.receive(
      group.members.filter((d) => d !== by),
      proposal,
    );
  }

  it('403 action-denied: a member who is not admin commits the Add of a new user', async () => {
    const group = await aliceAndBob();
    const inline = async () => group.post(await group.prepare(b1, { add: [c1] }));
    await expectRefused(group, inline, 403, 'action-denied');
    await proposedAdd(group, b1, await joiner(c1));
    await expectRefused(group, async () => group.post(await group.prepare(b1)), 403, 'action-denied');
  });

  it('403 not-connected: the committer is not connected to the user it adds', async () => {
    const group = await aliceAndBob();
    const inline = async () => group.post(await group.prepare(a1, { add: [d1] }));
    await expectRefused(group, inline, 403, 'not-connected');
    await proposedAdd(group, b1, await joiner(d1));
    await expectRefused(group, async () => group.post(await group.prepare(a1)), 403, 'not-connected');
  });

  it('403 mls-identity-mismatch: an Add proposal whose key package carries a key its client did not register', async () => {
    // As wire-server, the proposal itself is refused: its key package is checked when it arrives.
    const group = await aliceAndBob();
    const added = await joiner(c1, await unregisteredKeys());
    const proposal = await group.propose(b1, { proposalType: 'add', add: { keyPackage: added.publicPackage } });
    expect(await postMessage(b1, proposal)).toMatchObject({
      status: 403,
      body: wireError(403, 'mls-identity-mismatch'),
    });
  });

  it('409 mls-client-mismatch: one of the two clients of a new user', async () => {
    // b2 has a key package left: a commit adding bob must add it too.
    const key_packages = [Buffer.from(encodeKeyPackage((await joiner(b2)).publicPackage)).toString('base64')];
    const upload = await uploadKeyPackages(publicUrl, b2.token, b2.client, { key_packages });
    expect(upload.status, upload.text).toBe(201);
    const group = await TsMlsGroup.create(publicUrl, a1);
    await group.commit(a1, { add: [c1] });
    await proposedAdd(group, c1, await joiner(b1));
    await expectRefused(group, async () => group.post(await group.prepare(a1)), 409, 'mls-client-mismatch');
  });
});
