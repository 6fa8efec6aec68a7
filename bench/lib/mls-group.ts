import {
  acceptAll,
  type ClientState,
  type CiphersuiteImpl,
  createApplicationMessage,
  createCommit,
  createGroup,
  createGroupInfoWithExternalPubAndRatchetTree,
  decodeMlsMessage,
  defaultCapabilities,
  emptyPskIndex,
  encodeExternalSender,
  encodeMlsMessage,
  generateKeyPackageWithKey,
  getCiphersuiteFromName,
  getCiphersuiteImpl,
  joinGroupExternal,
  type KeyPackage,
  type MLSMessage,
  processMessage,
  type Proposal,
} from 'ts-mls';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Suite 1, the one Wire's clients use by default: hash SHA-256, signature scheme `ed25519`. */
const SUITE = 'MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519';
export const SCHEME = 'ed25519';

/** An MLS client of a seeded API client: its credential (Wire's basic identity) and signature key. */
export interface BenchMlsClient {
  user: string;
  client: string;
  /** The signature public key, base64: the client's registered `mls_public_keys[ed25519]`. */
  publicKey: string;
  keyPackage: KeyPackage;
  /**
   * Only the group's creator keeps its private keys, and the few members that rejoin by external
   * commits (their signature key): the others never read the group.
   */
  privatePackage?: Parameters<typeof createGroup>[2];
}

/**
 * The suite's hash, MAC and HKDF done by node:crypto at once, not by WebCrypto, whose every call
 * waits for a thread-pool job: ts-mls hashes the whole ratchet tree, node by node, when a client
 * joins by external commit, and derives a secret per node; at 10,000 members the waits took minutes.
 */
function withSyncHash(cs: CiphersuiteImpl): CiphersuiteImpl {
  const mac = (key: Uint8Array, data: Uint8Array) => new Uint8Array(createHmac('sha256', key).update(data).digest());
  /** RFC 5869's expand: T(i) = HMAC(prk, T(i-1) | info | i), as many blocks as `length` needs. */
  const expand = (prk: Uint8Array, info: Uint8Array, length: number) => {
    const out = new Uint8Array(length);
    let block = new Uint8Array(0);
    for (let i = 1, at = 0; at < length; i++, at += block.length) {
      block = mac(prk, Buffer.concat([block, info, Uint8Array.of(i)]));
      out.set(block.subarray(0, Math.min(block.length, length - at)), at);
    }
    return out;
  };
  return {
    ...cs,
    hash: {
      ...cs.hash,
      digest: async (data) => new Uint8Array(createHash('sha256').update(data).digest()),
      mac: async (key, data) => mac(key, data),
      verifyMac: async (key, tag, data) => {
        const expected = mac(key, data);
        return expected.length === tag.length && timingSafeEqual(expected, tag);
      },
    },
    kdf: {
      ...cs.kdf,
      extract: async (salt, ikm) => mac(salt, ikm),
      expand: async (prk, info, length) => expand(prk, info, length),
    },
  };
}

let impl: Promise<CiphersuiteImpl> | undefined;
const suite = () => (impl ??= getCiphersuiteImpl(getCiphersuiteFromName(SUITE)).then(withSyncHash));
const now = () => BigInt(Math.floor(Date.now() / 1000));

/**
 * A client's signature key and one key package made with it, with the basic credential
 * `<user>:<client hex>@<domain>` Wire's clients use; `keepPrivate` for those that will commit.
 */
export async function mlsClient(
  o: { user: string; client: string; domain: string },
  keepPrivate = false,
): Promise<BenchMlsClient> {
  const cs = await suite();
  const pair = await cs.signature.keygen();
  const identity = new TextEncoder().encode(`${o.user}:${BigInt(`0x${o.client}`).toString(16)}@${o.domain}`);
  const kp = await generateKeyPackageWithKey(
    { credentialType: 'basic', identity },
    defaultCapabilities(),
    { notBefore: now() - 3600n, notAfter: now() + 30n * 86400n },
    [],
    pair,
    cs,
  );
  return {
    user: o.user,
    client: o.client,
    publicKey: Buffer.from(pair.publicKey).toString('base64'),
    keyPackage: kp.publicPackage,
    ...(keepPrivate ? { privatePackage: kp.privatePackage } : {}),
  };
}

const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
/** MLSMessage's header of a GroupInfo: version mls10 (1), wire format mls_group_info (4). */
const GROUP_INFO_HEADER = new Uint8Array([0, 1, 0, 4]);

/** A commit bundle, built ahead: `accept` moves the creator's state on once the backend took it. */
export interface Bundle {
  body: Uint8Array;
  accept(): Promise<void>;
}

/** What a commit of the creator changes: clients added (their key packages), members' clients removed. */
interface Changes {
  add?: KeyPackage[];
  remove?: BenchMlsClient[];
  /** Random bytes in the commit's authenticated data and in an unknown GroupInfo extension: a small group's bundle as large as a big one's. */
  padding?: { commit: number; groupInfo: number };
}

/** Bytes no compression makes smaller. */
function noise(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let at = 0; at < size; at += 65_536) crypto.getRandomValues(out.subarray(at, Math.min(size, at + 65_536)));
  return out;
}

/** The leaf of a member's client in `state`, found by its signature key. */
function leafOf(state: ClientState, c: BenchMlsClient): number {
  const key = Buffer.from(c.publicKey, 'base64');
  const node = state.ratchetTree.findIndex((n) => n?.nodeType === 'leaf' && key.equals(n.leaf.signaturePublicKey));
  if (node < 0) throw new Error(`${c.user} is not in the group`);
  return node / 2;
}

/**
 * The creator's side of a group: it creates the group, adds members and commits, each commit
 * bundle (`POST /mls/commit-bundles`) built ahead and the state moved on as if the backend took
 * it. Nobody else holds group state: what is measured is the delivery service.
 */
export class BenchGroup {
  private constructor(
    private state: ClientState,
    private readonly cs: CiphersuiteImpl,
  ) {}

  /** A new group of `creator` (epoch 0) whose `external_senders` holds the backend's removal key. */
  static async create(groupId: Uint8Array, creator: BenchMlsClient, removalKey: Uint8Array): Promise<BenchGroup> {
    const cs = await suite();
    const externalSender = encodeExternalSender({
      signaturePublicKey: removalKey,
      credential: { credentialType: 'basic', identity: new TextEncoder().encode('backend') },
    });
    const state = await createGroup(
      groupId,
      creator.keyPackage,
      creator.privatePackage!,
      [{ extensionType: 'external_senders', extensionData: externalSender }],
      cs,
    );
    return new BenchGroup(state, cs);
  }

  get epoch(): bigint {
    return this.state.groupContext.epoch;
  }

  /**
   * The next commit as the bundle a client posts: the commit (a PublicMessage), the Welcome when it
   * adds, and the GroupInfo of the new epoch with its ratchet tree. Without proposals it is an
   * empty commit with an update path (a client rotating its keys); a removal has a path too.
   */
  async commit(o: Changes = {}): Promise<Bundle> {
    return (await this.commits(1, () => o))[0]!;
  }

  /**
   * `count` commits (see `commit`), each from the epoch the one before leads to: built ahead, to be
   * posted back to back in their order; each `accept`, in order, moves the group on.
   */
  async commits(count: number, changes: (i: number) => Changes): Promise<Bundle[]> {
    const out: Bundle[] = [];
    let state = this.state;
    for (let i = 0; i < count; i++) {
      const o = changes(i);
      const proposals: Proposal[] = [
        ...(o.add ?? []).map((keyPackage): Proposal => ({ proposalType: 'add', add: { keyPackage } })),
        ...(o.remove ?? []).map((c): Proposal => ({ proposalType: 'remove', remove: { removed: leafOf(state, c) } })),
      ];
      const made = await createCommit(
        { state, cipherSuite: this.cs },
        {
          wireAsPublicMessage: true,
          extraProposals: proposals,
          ...(o.padding === undefined ? {} : { authenticatedData: noise(o.padding.commit) }),
        },
      );
      const padded =
        o.padding === undefined ? [] : [{ extensionType: 0xf0a1, extensionData: noise(o.padding.groupInfo) }];
      const groupInfo = await createGroupInfoWithExternalPubAndRatchetTree(made.newState, padded, this.cs);
      const parts: MLSMessage[] = [made.commit];
      if (made.welcome !== undefined)
        parts.push({ version: 'mls10', wireformat: 'mls_welcome', welcome: made.welcome });
      parts.push({ version: 'mls10', wireformat: 'mls_group_info', groupInfo });
      state = made.newState;
      out.push({
        body: concat(parts.map((p) => encodeMlsMessage(p))),
        accept: async () => {
          this.state = made.newState;
        },
      });
    }
    return out;
  }

  /**
   * `client` rejoins the group by an external commit, as a Wire client that lost its state: from
   * a GroupInfo as `GET …/groupinfo` serves it (without the MLSMessage header), its old leaf
   * removed. The bundle is the commit and the new epoch's GroupInfo, which the backend serves once
   * it took the commit (`groupInfo`, for the next joiner); `accept` has the creator process it.
   */
  async rejoin(client: BenchMlsClient, groupInfo: Uint8Array): Promise<Bundle & { groupInfo: Uint8Array }> {
    if (client.privatePackage === undefined) throw new Error(`${client.user} kept no private keys`);
    const decoded = decodeMlsMessage(concat([GROUP_INFO_HEADER, groupInfo]), 0)?.[0];
    if (decoded?.wireformat !== 'mls_group_info') throw new Error('not a GroupInfo');
    const joined = await joinGroupExternal(decoded.groupInfo, client.keyPackage, client.privatePackage, true, this.cs);
    const commit = {
      version: 'mls10' as const,
      wireformat: 'mls_public_message' as const,
      publicMessage: joined.publicMessage,
    };
    const next = encodeMlsMessage({
      version: 'mls10',
      wireformat: 'mls_group_info',
      groupInfo: await createGroupInfoWithExternalPubAndRatchetTree(joined.newState, [], this.cs),
    });
    return {
      body: concat([encodeMlsMessage(commit), next]),
      groupInfo: next.subarray(GROUP_INFO_HEADER.length),
      accept: async () => {
        this.state = (await processMessage(commit, this.state, emptyPskIndex, acceptAll, this.cs)).newState;
      },
    };
  }

  /**
   * Adds every client, at most `maxClients` and `maxBytes` (the ingress body limit) a commit: posts
   * each with `post` and moves on when it is taken.
   */
  async addAll(
    clients: BenchMlsClient[],
    limits: { maxBytes: number; maxClients: number },
    post: (body: Uint8Array) => Promise<void>,
  ): Promise<number> {
    const { maxBytes } = limits;
    let chunk = Math.min(clients.length, limits.maxClients);
    let commits = 0;
    for (let at = 0; at < clients.length; ) {
      const next = clients.slice(at, at + chunk);
      const bundle = await this.commit({ add: next.map((c) => c.keyPackage) });
      if (bundle.body.length > maxBytes && chunk > 1) {
        chunk = Math.ceil(chunk / 2);
        continue;
      }
      await post(bundle.body);
      await bundle.accept();
      at += next.length;
      commits += 1;
    }
    return commits;
  }

  /** `n` application messages (MLSMessage(PrivateMessage)) of the current epoch, each a different ciphertext. */
  async applicationMessages(n: number): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    for (let i = 0; i < n; i++) {
      const made = await createApplicationMessage(this.state, new TextEncoder().encode(`bench ${i}`), this.cs);
      this.state = made.newState;
      out.push(
        encodeMlsMessage({ version: 'mls10', wireformat: 'mls_private_message', privateMessage: made.privateMessage }),
      );
    }
    return out;
  }
}
