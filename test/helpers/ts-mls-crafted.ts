/**
 * ts-mls clients registered on the backend, and the MLS groups they build through it. Every
 * message is real (signed, its GroupInfo carrying the ratchet tree), so a test can send it, hold
 * it back, send it twice, or break one field of it. Suite 1 and no `external_senders`: ts-mls
 * 1.6.4 encodes that extension in a non-RFC way, so these clients cannot process the backend's
 * own Remove proposals (use core-crypto, `core-crypto.ts`, for those).
 */
import {
  acceptAll,
  type CiphersuiteImpl,
  type ClientState,
  type Commit,
  createApplicationMessage,
  createCommit,
  createGroup,
  createGroupInfoWithExternalPubAndRatchetTree,
  createProposal,
  decodeMlsMessage,
  defaultCapabilities,
  emptyPskIndex,
  type Extension,
  encodeMlsMessage,
  generateKeyPackageWithKey,
  getCiphersuiteFromName,
  getCiphersuiteImpl,
  joinGroup,
  type KeyPackage,
  type MLSMessage,
  type PrivateKeyPackage,
  type Proposal,
  processMessage,
} from 'ts-mls';
import { expect } from 'vitest';
import { concatBytes } from './bytes.js';
import type { Reply } from './http.js';
import { tokenOf } from './mls.js';
import { proteusKeys } from './prekeys.js';
import { api, type TestUser } from './users.js';
import { postClient, putClient } from './endpoints/brig.js';
import { postConversation, postMLSCommitBundle } from './endpoints/galley.js';
import { getNotifications } from './endpoints/gundeck.js';

const DOMAIN = 'example.com';

let implementation: Promise<CiphersuiteImpl> | undefined;
/** Suite 1 (X25519, AES-128-GCM, SHA-256, Ed25519), loaded once. */
const suite = () =>
  (implementation ??= getCiphersuiteImpl(getCiphersuiteFromName('MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519')));

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** An Ed25519 signature key pair, as ts-mls signs with it. */
export interface SignatureKeys {
  signKey: Uint8Array;
  publicKey: Uint8Array;
}

/** A fresh signature key pair, registered nowhere. */
export const unregisteredKeys = async (): Promise<SignatureKeys> => (await suite()).signature.keygen();

/** A client of a user, registered with the MLS signature key its ts-mls state signs with. */
export interface TsMlsDevice {
  user: TestUser;
  /** The client id as the API writes it (hex). */
  client: string;
  /** An access token bound to the client, with a connection of its own. */
  token: string;
  /** The key pair registered as the client's `mls_public_keys.ed25519`. */
  keys: SignatureKeys;
  /** The user's backend, when not example.com. */
  domain?: string;
}

/**
 * Registers a client of `user` (one that consumes notifications from `/events` when `consumable`)
 * and its MLS signature key.
 */
export async function tsMlsDevice(
  base: string,
  user: TestUser,
  o: { consumable?: boolean; domain?: string } = {},
): Promise<TsMlsDevice> {
  const added = await postClient(base, user.token, {
    type: 'permanent',
    ...(await proteusKeys(1)),
    password: user.password,
    ...(o.consumable ? { capabilities: ['consumable-notifications'] } : {}),
  });
  expect(added.status, added.text).toBe(201);
  const client = added.body.id as string;
  const keys = await unregisteredKeys();
  const put = await putClient(base, user.token, client, {
    mls_public_keys: { ed25519: b64(keys.publicKey) },
  });
  expect(put.status, put.text).toBe(200);
  return { user, client, token: await tokenOf(base, user, client), keys, ...(o.domain ? { domain: o.domain } : {}) };
}

/** A client about to be added: its KeyPackage and the private part it joins with. */
export interface Joiner {
  device: TsMlsDevice;
  publicPackage: KeyPackage;
  privatePackage: PrivateKeyPackage;
}

/**
 * A KeyPackage of `device`, with the credential Wire clients use (`<user>:<client hex>@<domain>`),
 * signed with its registered key unless `keys` says otherwise.
 */
export async function joiner(device: TsMlsDevice, keys = device.keys): Promise<Joiner> {
  const hex = BigInt(`0x${device.client}`).toString(16);
  const identity = new TextEncoder().encode(`${device.user.id}:${hex}@${device.domain ?? DOMAIN}`);
  const now = BigInt(Math.floor(Date.now() / 1000));
  const lifetime = { notBefore: now - 3600n, notAfter: now + 7n * 86400n };
  const credential = { credentialType: 'basic' as const, identity };
  const kp = await generateKeyPackageWithKey(credential, defaultCapabilities(), lifetime, [], keys, await suite());
  return { device, ...kp };
}

/** A commit made by a member and not sent yet: its messages, and the group it leads to if taken. */
export interface PreparedCommit {
  by: TsMlsDevice;
  /** MLSMessage(PublicMessage commit). */
  commit: MLSMessage;
  welcome: MLSMessage | undefined;
  /** MLSMessage(GroupInfo) of the new epoch, with the ratchet tree. */
  groupInfo: MLSMessage;
  /** The committer's state in the new epoch. */
  newState: ClientState;
  joiners: Joiner[];
  removed: TsMlsDevice[];
}

const memberAdd = (keyPackage: KeyPackage): Proposal => ({ proposalType: 'add', add: { keyPackage } });
const memberRemove = (removed: number): Proposal => ({ proposalType: 'remove', remove: { removed } });

/** The bytes of an MLSMessage. */
export const bytesOf = (message: MLSMessage): Uint8Array => encodeMlsMessage(message);

/** A commit bundle's body: the commit, its Welcome and its GroupInfo, whichever are given, back to back. */
export function bundleBody(parts: { commit: MLSMessage; welcome?: MLSMessage | undefined; groupInfo?: MLSMessage }) {
  return concatBytes(...[parts.commit, parts.welcome, parts.groupInfo].filter((m) => m !== undefined).map(bytesOf));
}

/**
 * The commit message with its Commit changed. Nothing is signed again: the backend checks a
 * commit's signature after everything else it checks (and never its membership tag, as
 * wire-server), so a change is refused for what it breaks first.
 */
export function alteredCommit(message: MLSMessage, change: (commit: Commit) => Commit): MLSMessage {
  if (message.wireformat !== 'mls_public_message') throw new Error('not a public message');
  const content = message.publicMessage.content;
  if (content.contentType !== 'commit') throw new Error('not a commit');
  return {
    ...message,
    publicMessage: { ...message.publicMessage, content: { ...content, commit: change(content.commit) } },
  };
}

/** The commit message with one bit of its signature flipped. */
export function withBrokenSignature(message: MLSMessage): MLSMessage {
  if (message.wireformat !== 'mls_public_message') throw new Error('not a public message');
  const signature = message.publicMessage.auth.signature.slice();
  signature[0]! ^= 1;
  const auth = { ...message.publicMessage.auth, signature };
  return { ...message, publicMessage: { ...message.publicMessage, auth } };
}

/** A commit change for `alteredCommit`: no update path. */
export const withoutPath = (commit: Commit): Commit => ({ ...commit, path: undefined });

/** A commit change for `alteredCommit`: the path leaf's signature with one bit flipped. */
export function withBrokenPathLeafSignature(commit: Commit): Commit {
  if (commit.path === undefined) throw new Error('a commit without update path');
  const signature = commit.path.leafNode.signature.slice();
  signature[0]! ^= 1;
  return { ...commit, path: { ...commit.path, leafNode: { ...commit.path.leafNode, signature } } };
}

/** A commit change for `alteredCommit`: its only proposal removes `leaf`. */
export const removingOnly =
  (leaf: number) =>
  (commit: Commit): Commit => ({
    ...commit,
    proposals: [{ proposalOrRefType: 'proposal', proposal: memberRemove(leaf) }],
  });

/**
 * A member's state with its own leaf's signature key replaced by `keys`: its next commit carries
 * a path leaf (validly signed) with a key its client never registered, as if it rotated its key.
 */
export function withSignatureKeys(state: ClientState, keys: SignatureKeys): ClientState {
  const node = 2 * state.privatePath.leafIndex;
  const own = state.ratchetTree[node];
  if (own?.nodeType !== 'leaf') throw new Error('no own leaf');
  const ratchetTree = state.ratchetTree.slice();
  ratchetTree[node] = { ...own, leaf: { ...own.leaf, signaturePublicKey: keys.publicKey } };
  return { ...state, ratchetTree, signaturePrivateKey: keys.signKey };
}

/** An application message of a member in the epoch of `state`. */
export async function applicationMessage(state: ClientState, text: string): Promise<Uint8Array> {
  const sent = await createApplicationMessage(state, new TextEncoder().encode(text), await suite());
  return bytesOf({ version: 'mls10', wireformat: 'mls_private_message', privateMessage: sent.privateMessage });
}

/** What the backend shows of a group: the epoch, the members, the stored GroupInfo, what each member device was sent. */
interface GroupView {
  epoch: number;
  members: string[];
  /** The stored GroupInfo in base64, or the status of `GET …/groupinfo` when there is none. */
  groupInfo: string | number;
  /** How many notifications of this conversation each member device was sent, by client. */
  notified: Record<string, number>;
}

/**
 * An MLS conversation of the backend and its group of ts-mls clients: each member device's state,
 * moved on as the backend takes commits.
 */
export class TsMlsGroup {
  private readonly states = new Map<string, ClientState>();
  private readonly devices = new Map<string, TsMlsDevice>();

  private constructor(
    private readonly base: string,
    readonly owner: TsMlsDevice,
    readonly conv: { id: string; domain: string },
    readonly groupId: Uint8Array,
  ) {}

  /** A new MLS conversation of `owner`'s user and its group at epoch 0, with `owner` in it. */
  static async create(base: string, owner: TsMlsDevice): Promise<TsMlsGroup> {
    const r = await postConversation(base, owner.token, {
      protocol: 'mls',
      name: 'MLS',
      qualified_users: [],
    });
    expect(r.status, r.text).toBe(201);
    const group = new TsMlsGroup(
      base,
      owner,
      r.body.qualified_id,
      new Uint8Array(Buffer.from(r.body.group_id, 'base64')),
    );
    const kp = await joiner(owner);
    group.states.set(
      owner.client,
      await createGroup(group.groupId, kp.publicPackage, kp.privatePackage, [], await suite()),
    );
    group.devices.set(owner.client, owner);
    return group;
  }

  /** A member device's current state. */
  stateOf(d: TsMlsDevice): ClientState {
    const state = this.states.get(d.client);
    if (state === undefined) throw new Error(`${d.client} is not in the group`);
    return state;
  }

  /** The leaf of a member device, as its own state says. */
  leafOf(d: TsMlsDevice): number {
    return this.stateOf(d).privatePath.leafIndex;
  }

  /** The member devices. */
  get members(): TsMlsDevice[] {
    return [...this.devices.values()];
  }

  /**
   * A commit by `by` (from its current state unless `state` is given): adding these clients,
   * removing those member devices, plus any other proposals inline; not sent.
   */
  async prepare(
    by: TsMlsDevice,
    o: {
      add?: Array<TsMlsDevice | Joiner>;
      remove?: TsMlsDevice[];
      proposals?: Proposal[];
      state?: ClientState;
      /** The commit's authenticated data (any size: what makes a commit large without a large group). */
      authenticatedData?: Uint8Array;
      /** Extensions of the new epoch's GroupInfo besides its ratchet tree and external key. */
      groupInfoExtensions?: Extension[];
      /** Extensions of the GroupInfo the Welcome carries to the added clients. */
      welcomeExtensions?: Extension[];
    } = {},
  ): Promise<PreparedCommit> {
    const cs = await suite();
    const joiners = await Promise.all((o.add ?? []).map((d) => ('publicPackage' in d ? d : joiner(d))));
    const removed = o.remove ?? [];
    const extraProposals = [
      ...joiners.map((j) => memberAdd(j.publicPackage)),
      ...removed.map((d) => memberRemove(this.leafOf(d))),
      ...(o.proposals ?? []),
    ];
    const made = await createCommit(
      { state: o.state ?? this.stateOf(by), cipherSuite: cs },
      {
        wireAsPublicMessage: true,
        ratchetTreeExtension: true,
        extraProposals,
        ...(o.authenticatedData === undefined ? {} : { authenticatedData: o.authenticatedData }),
        ...(o.welcomeExtensions === undefined ? {} : { groupInfoExtensions: o.welcomeExtensions }),
      },
    );
    const groupInfo = await createGroupInfoWithExternalPubAndRatchetTree(
      made.newState,
      o.groupInfoExtensions ?? [],
      cs,
    );
    return {
      by,
      commit: made.commit,
      welcome: made.welcome && { version: 'mls10', wireformat: 'mls_welcome', welcome: made.welcome },
      groupInfo: { version: 'mls10', wireformat: 'mls_group_info', groupInfo },
      newState: made.newState,
      joiners,
      removed,
    };
  }

  /** Posts a prepared commit's bundle (or another `body`) with its committer's token (or another `token`). */
  post(p: PreparedCommit, o: { body?: Uint8Array; token?: string } = {}): Promise<Reply> {
    return postMLSCommitBundle(this.base, o.token ?? p.by.token, o.body ?? bundleBody(p));
  }

  /**
   * Posts a prepared commit's bundle, which the backend must take; then every member device moves
   * to the new epoch: the others process the commit, the added ones join by the Welcome.
   */
  async send(p: PreparedCommit): Promise<Reply> {
    const answer = await this.post(p);
    expect(answer.status, answer.text).toBe(201);
    await this.apply(p);
    return answer;
  }

  /** Prepares and sends a commit, which the backend must take. */
  async commit(by: TsMlsDevice, o: Parameters<TsMlsGroup['prepare']>[1] = {}): Promise<Reply> {
    return this.send(await this.prepare(by, o));
  }

  private async apply(p: PreparedCommit): Promise<void> {
    const cs = await suite();
    for (const d of p.removed) {
      this.states.delete(d.client);
      this.devices.delete(d.client);
    }
    for (const [client, state] of this.states) {
      if (client !== p.by.client) this.states.set(client, await this.processed(state, p.commit));
    }
    this.states.set(p.by.client, p.newState);
    for (const j of p.joiners) {
      if (p.welcome?.wireformat !== 'mls_welcome') throw new Error('an Add without a Welcome');
      const state = await joinGroup(p.welcome.welcome, j.publicPackage, j.privatePackage, emptyPskIndex, cs);
      this.states.set(j.device.client, state);
      this.devices.set(j.device.client, j.device);
    }
  }

  private async processed(state: ClientState, message: MLSMessage): Promise<ClientState> {
    if (message.wireformat !== 'mls_public_message' && message.wireformat !== 'mls_private_message')
      throw new Error(`cannot process a ${message.wireformat}`);
    return (await processMessage(message, state, emptyPskIndex, acceptAll, await suite())).newState;
  }

  /** A member's public proposal, which its own state keeps as pending; not sent. */
  async propose(by: TsMlsDevice, proposal: Proposal): Promise<Uint8Array> {
    const made = await createProposal(this.stateOf(by), true, proposal, await suite());
    this.states.set(by.client, made.newState);
    return bytesOf(made.message);
  }

  /** Member devices process a message of the group (a proposal, say), as if the backend had delivered it. */
  async receive(devices: TsMlsDevice[], message: Uint8Array): Promise<void> {
    const decoded = decodeMlsMessage(message, 0);
    if (decoded === undefined) throw new Error('not an MLS message');
    for (const d of devices) this.states.set(d.client, await this.processed(this.stateOf(d), decoded[0]));
  }

  /** A member's application message in the current epoch, which moves its sending ratchet on. */
  async encrypt(by: TsMlsDevice, text: string): Promise<Uint8Array> {
    const sent = await createApplicationMessage(this.stateOf(by), new TextEncoder().encode(text), await suite());
    this.states.set(by.client, sent.newState);
    return bytesOf({ version: 'mls10', wireformat: 'mls_private_message', privateMessage: sent.privateMessage });
  }

  /** What the backend shows of the group now (see `GroupView`). */
  async view(): Promise<GroupView> {
    const path = `/v8/conversations/${this.conv.domain}/${this.conv.id}`;
    const conv = await api(this.base, this.owner.token).get(path);
    expect(conv.status, conv.text).toBe(200);
    const info = await fetch(`${this.base}${path}/groupinfo`, {
      headers: { authorization: `Bearer ${this.owner.token}` },
    });
    const notified: Record<string, number> = {};
    for (const d of this.devices.values()) {
      const r = await getNotifications(this.base, d.token, { client: d.client, size: 1000 });
      notified[d.client] = (r.body.notifications ?? [])
        .flatMap((n: { payload: Array<{ conversation?: string }> }) => n.payload)
        .filter((e: { conversation?: string }) => e.conversation === this.conv.id).length;
    }
    return {
      epoch: conv.body.epoch,
      members: [conv.body.members.self.id, ...conv.body.members.others.map((m: any) => m.qualified_id.id)].sort(),
      groupInfo: info.status === 200 ? b64(new Uint8Array(await info.arrayBuffer())) : info.status,
      notified,
    };
  }
}
