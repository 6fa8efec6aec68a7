/**
 * The device's cryptography, as the web app keeps it: one core-crypto instance (its WASM build,
 * its database in IndexedDB) doing Proteus for 1:1 and group messages and MLS for MLS groups.
 */
import * as cc from '@wireapp/core-crypto/browser';

/** Served beside the bundle by the page's server (core-crypto's `index_bg.wasm`). */
const WASM_PATH = '/core-crypto.wasm';

let wasm: Promise<void> | undefined;

/** `CoreCrypto.transaction()` calls `Error.isError` when its callback throws (not in every browser yet). */
function installIsError(): void {
  const errorClass = Error as unknown as { isError?: (value: unknown) => boolean };
  errorClass.isError ??= (value) => value instanceof Error;
}

export const base64 = (bytes: Uint8Array): string => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
};
export const fromBase64 = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A prekey as `POST /clients` takes it. */
export interface PreKey {
  id: number;
  key: string;
}

/** What core-crypto made of an incoming MLS message. */
export type MlsDecrypted = { kind: 'application'; plaintext: Uint8Array } | { kind: 'handshake' };

/** The web app's Proteus session id: `domain@user@client`. */
export const sessionId = (user: { id: string; domain: string }, client: string) =>
  `${user.domain}@${user.id}@${client}`;

export class DeviceCrypto {
  private credential: cc.CredentialRef | undefined;

  private constructor(private readonly core: cc.CoreCrypto) {}

  /** Loads the WASM module once, opens (creates) the device's database and initialises Proteus. */
  static async open(name: string): Promise<DeviceCrypto> {
    installIsError();
    wasm ??= cc.initWasmModule(WASM_PATH);
    await wasm;
    const key = new cc.DatabaseKey(crypto.getRandomValues(new Uint8Array(32)));
    const core = cc.CoreCrypto.new((await cc.Database.open(name, key)) as cc.Database);
    await core.transaction((ctx) => ctx.proteusInit());
    return new DeviceCrypto(core);
  }

  /** `count` fresh prekeys and the last-resort one, for the client's registration. */
  async prekeys(count: number): Promise<{ prekeys: PreKey[]; lastkey: PreKey }> {
    return this.core.transaction(async (ctx) => {
      const prekeys: PreKey[] = [];
      for (let id = 0; id < count; id++) prekeys.push({ id, key: base64(await ctx.proteusNewPrekey(id)) });
      const lastkey = { id: cc.proteusLastResortPrekeyId(), key: base64(await ctx.proteusLastResortPrekey()) };
      return { prekeys, lastkey };
    });
  }

  /** Encrypts for each session; a session is made from `prekeys[session]` when it does not exist yet. */
  async proteusEncrypt(
    plaintext: Uint8Array,
    sessions: string[],
    prekeys: Record<string, PreKey>,
  ): Promise<Map<string, Uint8Array>> {
    return this.core.transaction(async (ctx) => {
      const out = new Map<string, Uint8Array>();
      for (const id of sessions) {
        if (!(await ctx.proteusSessionExists(id))) {
          const prekey = prekeys[id];
          if (prekey === undefined) throw new Error(`no session and no prekey for ${id}`);
          await ctx.proteusSessionFromPrekey(id, fromBase64(prekey.key));
        }
        out.set(id, await ctx.proteusEncrypt(id, plaintext));
      }
      return out;
    });
  }

  async hasSession(id: string): Promise<boolean> {
    return this.core.transaction((ctx) => ctx.proteusSessionExists(id));
  }

  proteusDecrypt(id: string, envelope: Uint8Array): Promise<Uint8Array> {
    return this.core.transaction((ctx) => ctx.proteusDecryptSafe(id, envelope));
  }

  /**
   * Starts MLS for the registered client (a basic credential of `suite`); each commit core-crypto
   * makes goes to `sendCommitBundle` (the backend's `/mls/commit-bundles`), whose refusal drops it.
   */
  async mlsInit(
    user: { id: string; domain: string },
    client: string,
    suite: number,
    sendCommitBundle: (body: Uint8Array) => Promise<void>,
  ): Promise<void> {
    const clientId = new cc.ClientId(new cc.Uuid(user.id), cc.DeviceId.fromHexString(client), user.domain);
    const transport: cc.MlsTransport = {
      async sendCommitBundle(bundle) {
        const parts = [bundle.commit, bundle.welcome?.serialize(), bundle.groupInfo.payload];
        try {
          await sendCommitBundle(concat(...parts.filter((p): p is Uint8Array => p !== undefined)));
        } catch (err) {
          throw new cc.MlsTransportError.MessageRejected({ reason: String(err) });
        }
      },
      async prepareForTransport() {
        return new Uint8Array();
      },
    };
    this.credential = await this.core.transaction(async (ctx) => {
      await ctx.mlsInit(clientId, transport);
      return ctx.addCredential(cc.Credential.basic(cc.cipherSuiteFromU16(suite), clientId));
    });
  }

  private get mlsCredential(): cc.CredentialRef {
    if (this.credential === undefined) throw new Error('MLS is not initialised');
    return this.credential;
  }

  /** The credential's signature public key, as the client registers it (`mls_public_keys`). */
  async signatureKey(): Promise<Uint8Array> {
    return this.core.publicKey(this.mlsCredential);
  }

  async keyPackages(count: number): Promise<Uint8Array[]> {
    const credential = this.mlsCredential;
    return this.core.transaction(async (ctx) => {
      const out: Uint8Array[] = [];
      for (let i = 0; i < count; i++) out.push((await ctx.generateKeyPackage(credential)).serialize());
      return out;
    });
  }

  /** A new group whose external sender is the backend's removal key (raw public key bytes). */
  async createGroup(groupId: Uint8Array, removalKey: Uint8Array, scheme: cc.SignatureScheme): Promise<void> {
    const credential = this.mlsCredential;
    const sender = cc.ExternalSender.parsePublicKey(removalKey, scheme);
    await this.core.transaction((ctx) => ctx.createConversation(new cc.ConversationId(groupId), credential, sender));
  }

  /** Commits the Add of these key packages (the transport posts the bundle). */
  async addToGroup(groupId: Uint8Array, keyPackages: Uint8Array[]): Promise<void> {
    const kps = keyPackages.map((kp) => new cc.KeyPackage(kp));
    await this.core.transaction((ctx) => ctx.addClientsToConversation(new cc.ConversationId(groupId), kps));
  }

  /** Joins by a Welcome (MLSMessage bytes); the group id it joined. */
  async joinByWelcome(welcome: Uint8Array): Promise<Uint8Array> {
    const joined = await this.core.transaction((ctx) => ctx.processWelcomeMessage(new cc.Welcome(welcome)));
    return joined.copyBytes();
  }

  async mlsEncrypt(groupId: Uint8Array, plaintext: Uint8Array): Promise<Uint8Array> {
    return this.core.transaction((ctx) => ctx.encryptMessage(new cc.ConversationId(groupId), plaintext));
  }

  async mlsDecrypt(groupId: Uint8Array, message: Uint8Array): Promise<MlsDecrypted> {
    const decrypted = await this.core.transaction((ctx) => ctx.decryptMessage(new cc.ConversationId(groupId), message));
    if (cc.DecryptedMessage.Text.instanceOf(decrypted))
      return { kind: 'application', plaintext: decrypted.inner.plaintext };
    return { kind: 'handshake' };
  }

  async hasGroup(groupId: Uint8Array): Promise<boolean> {
    return this.core.transaction((ctx) => ctx.conversationExists(new cc.ConversationId(groupId)));
  }
}

/** The signature scheme of an MLS cipher suite, and its key's name in `mls_public_keys`. */
export function signatureOf(suite: number): { scheme: cc.SignatureScheme; name: string } {
  switch (suite) {
    case 1:
      return { scheme: cc.SignatureScheme.Ed25519, name: 'ed25519' };
    case 2:
      return { scheme: cc.SignatureScheme.EcdsaSecp256r1Sha256, name: 'ecdsa_secp256r1_sha256' };
    case 5:
      return { scheme: cc.SignatureScheme.EcdsaSecp521r1Sha512, name: 'ecdsa_secp521r1_sha512' };
    case 7:
      return { scheme: cc.SignatureScheme.EcdsaSecp384r1Sha384, name: 'ecdsa_secp384r1_sha384' };
    default:
      throw new Error(`cipher suite ${suite} is not one the web app uses`);
  }
}
