/**
 * MLS as wire-server's scenarios drive it (createMLSClient, createGroup, createAddCommit,
 * sendAndConsumeCommitBundle...), on core-crypto devices of test/helpers/mls.ts.
 */
import { expect } from 'vitest';
import type { CommitBundleBytes } from '../../helpers/core-crypto.js';
import type { Reply } from '../../helpers/http.js';
import {
  bytesOf,
  claimKeyPackages,
  type MlsDevice,
  mlsDevice,
  mlsEventsOf,
  uploadKeyPackages,
} from '../../helpers/mls.js';
import type { TestUser } from '../../helpers/users.js';
import { awaitEvent, DOMAIN, pub } from './env.js';
import type { TestSocket } from '../../helpers/websocket.js';
import * as brig from '../../helpers/endpoints/brig.js';
import { getConversation, getMLSPublicKeys, postConversation, postMLSMessage } from '../../helpers/endpoints/galley.js';

export interface MlsConv {
  id: string;
  qualified_id: { id: string; domain: string };
  groupId: Uint8Array;
  /** The creation response. */
  body: any;
}

/** A device with `kps` key packages uploaded. */
export async function device(u: TestUser, kps = 1, suite = 1): Promise<MlsDevice> {
  const d = await mlsDevice(pub, u, suite);
  if (kps > 0) await uploadKeyPackages(pub, d, kps);
  return d;
}

const removalKey = async (d: MlsDevice) => {
  const keys = (await getMLSPublicKeys(pub, d.token)).body;
  const scheme = d.mls.suite === 2 ? 'ecdsa_secp256r1_sha256' : 'ed25519';
  return bytesOf(keys.removal[scheme]);
};

/** POST /conversations with protocol mls (expects 201), then the creator's group (createGroup). */
export async function mlsConv(owner: MlsDevice, body: Record<string, unknown> = {}): Promise<MlsConv> {
  const r = await postConversation(pub, owner.token, { protocol: 'mls', qualified_users: [], ...body });
  expect(r.status, r.text).toBe(201);
  const conv: MlsConv = {
    id: r.body.qualified_id.id,
    qualified_id: r.body.qualified_id,
    groupId: bytesOf(r.body.group_id),
    body: r.body,
  };
  await owner.mls.createConversation(conv.groupId, await removalKey(owner));
  return conv;
}

/** Starts the group of an existing conversation (given its group id, base64) on a device. */
export async function createGroup(d: MlsDevice, id: { id: string; domain: string }, groupId: string): Promise<MlsConv> {
  const conv: MlsConv = { id: id.id, qualified_id: id, groupId: bytesOf(groupId), body: undefined };
  await d.mls.createConversation(conv.groupId, await removalKey(d));
  return conv;
}

/** The outcome of a commit a device sent: the bundle, and the backend's answer when it refused it. */
export interface Sent {
  bundle?: CommitBundleBytes;
  refused?: Reply;
}

async function sending(d: MlsDevice, work: () => Promise<CommitBundleBytes>): Promise<Sent> {
  try {
    return { bundle: await work() };
  } catch (err) {
    if (d.refused === undefined) throw err;
    return { refused: d.refused };
  }
}

/** Claims one key package of each client of `u` (but the claimer's own), with whose it is. */
export async function claimed(by: MlsDevice, u: TestUser): Promise<Array<{ client: string; kp: Uint8Array }>> {
  const r = await brig.claimKeyPackages(
    pub,
    by.token,
    { domain: DOMAIN, id: u.id },
    {
      ciphersuite: `0x${by.mls.suite.toString(16).padStart(4, '0')}`,
    },
  );
  expect(r.status, r.text).toBe(200);
  return r.body.key_packages.map((k: { client: string; key_package: string }) => ({
    client: k.client,
    kp: bytesOf(k.key_package),
  }));
}

/** Claims key packages of every client of `users` and commits their Add (createAddCommit + send). */
export async function addUsers(by: MlsDevice, conv: MlsConv, users: TestUser[]): Promise<Sent> {
  const kps: Uint8Array[] = [];
  for (const u of users) kps.push(...(await claimKeyPackages(pub, by, u, by.mls.suite)));
  return sending(by, () => by.mls.addClients(conv.groupId, kps));
}

/** Commits the removal of these devices (createRemoveCommit + send). */
export const removeDevices = (by: MlsDevice, conv: MlsConv, gone: MlsDevice[]): Promise<Sent> =>
  sending(by, () =>
    by.mls.removeClients(
      conv.groupId,
      gone.map((g) => ({ user: g.user.id, client: g.client, domain: DOMAIN })),
    ),
  );

/** An update commit (createPendingProposalCommit / updateKeyingMaterial) sent. */
export const updateCommit = (by: MlsDevice, conv: MlsConv): Promise<Sent> =>
  sending(by, () => by.mls.updateKeyingMaterial(conv.groupId));

/** The Welcome a device was sent last for a conversation, applied. */
export async function joinByWelcome(d: MlsDevice, conv: MlsConv): Promise<void> {
  const welcome = (await mlsEventsOf(pub, d)).filter(
    (e) => e.type === 'conversation.mls-welcome' && e.conversation === conv.id,
  );
  expect(welcome.length, `no welcome for ${d.client}`).toBeGreaterThan(0);
  await d.mls.processWelcome(bytesOf(welcome.at(-1)!.data));
}

/** Adds users and lets each of the given devices join by the Welcome. */
export async function addAndJoin(by: MlsDevice, conv: MlsConv, users: TestUser[], joiners: MlsDevice[]): Promise<Sent> {
  const sent = await addUsers(by, conv, users);
  expect(sent.refused, sent.refused?.text).toBeUndefined();
  for (const d of joiners) await joinByWelcome(d, conv);
  return sent;
}

/**
 * The commits of a conversation a device has not processed, processed in order, as wire's test
 * clients consume every commit they are sent (what it processed before fails to decrypt: skipped).
 */
export async function catchUp(d: MlsDevice, conv: MlsConv): Promise<void> {
  const commits = (await mlsEventsOf(pub, d)).filter(
    (e) => e.type === 'conversation.mls-message-add' && e.conversation === conv.id,
  );
  for (const e of commits) await d.mls.decrypt(conv.groupId, bytesOf(e.data)).catch(() => undefined);
}

/** Joins a conversation's group by external commit from the GroupInfo the backend serves (no refusal). */
export async function joinExternally(d: MlsDevice, conv: MlsConv): Promise<void> {
  const info = await fetch(`${pub}/v8/conversations/${conv.qualified_id.domain}/${conv.id}/groupinfo`, {
    headers: { authorization: `Bearer ${d.token}` },
  });
  expect(info.status).toBe(200);
  await d.mls.joinByExternalCommit(new Uint8Array(await info.arrayBuffer()));
  expect(d.refused, d.refused?.text).toBeUndefined();
}

/** The backend's next proposal on a device's socket, processed and committed (nothing else in the commit). */
export async function commitBackendProposal(d: MlsDevice, conv: MlsConv, ws: TestSocket): Promise<void> {
  const proposal = await awaitEvent(ws, 'conversation.mls-message-add');
  expect(await d.mls.decrypt(conv.groupId, bytesOf(proposal.data))).toEqual({ kind: 'proposal' });
  expect(await d.mls.commitPendingProposals(conv.groupId)).toBeDefined();
  expect(d.refused, d.refused?.text).toBeUndefined();
  expect(d.accepted!.body.events).toEqual([]);
}

/** Encrypts and posts an application message (createApplicationMessage + sendAndConsumeMessage). */
export async function sendMessage(d: MlsDevice, conv: MlsConv, text = 'hello'): Promise<Reply> {
  return postMLSMessage(pub, d.token, await d.mls.encrypt(conv.groupId, text));
}

/** The conversation as a user sees it. */
export const getConv = (u: TestUser, conv: { qualified_id: { id: string; domain: string } }) =>
  getConversation(pub, u.token, conv.qualified_id);

export const otherIds = (r: Reply): string[] => r.body.members.others.map((m: any) => m.qualified_id.id);
