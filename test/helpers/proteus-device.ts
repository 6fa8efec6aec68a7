import * as Proteus from '@wireapp/proteus';

let ready: Promise<void> | undefined;

/**
 * Prekeys kept serialised and read back fresh for every session (Proteus wipes a prekey's secret
 * once used), so that a stored copy of a message can be decrypted again.
 */
class MemoryPreKeyStore extends Proteus.session.PreKeyStore {
  private readonly keys: Map<number, Proteus.keys.PreKey>;
  constructor(serialised: ArrayBuffer[]) {
    super();
    const prekeys = serialised.map((b) => Proteus.keys.PreKey.deserialise(b));
    this.keys = new Map(prekeys.map((p) => [p.key_id, p]));
  }
  async load_prekey(id: number) {
    return this.keys.get(id);
  }
  async delete_prekey(id: number) {
    return id;
  }
}

const arrayBuffer = (b64: string) => {
  const b = Buffer.from(b64, 'base64');
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
};

/** A real Proteus device: its identity and prekeys, what to register, and encryption both ways. */
export class ProteusDevice {
  private readonly serialisedPrekeys: ArrayBuffer[];

  private constructor(
    private readonly identity: Proteus.keys.IdentityKeyPair,
    private readonly prekeys: Proteus.keys.PreKey[],
  ) {
    this.serialisedPrekeys = prekeys.map((p) => p.serialise());
  }

  static async create(count = 5): Promise<ProteusDevice> {
    await (ready ??= Proteus.init());
    return new ProteusDevice(new Proteus.keys.IdentityKeyPair(), [
      ...Proteus.keys.PreKey.generate_prekeys(0, count),
      Proteus.keys.PreKey.last_resort(),
    ]);
  }

  /** `lastkey` and `prekeys` as POST /clients takes them. */
  get registration() {
    const toApi = (pk: Proteus.keys.PreKey) =>
      new Proteus.keys.PreKeyBundle(this.identity.public_key, pk).serialised_json();
    const last = this.prekeys.at(-1)!;
    return { lastkey: toApi(last), prekeys: this.prekeys.slice(0, -1).map(toApi) };
  }

  /** Encrypts for another device from one of its prekeys (`{id, key}` as the API hands them out). */
  encryptFor(prekey: { key: string }, plaintext: string): Uint8Array {
    const session = Proteus.session.Session.init_from_prekey(
      this.identity,
      Proteus.keys.PreKeyBundle.deserialise(arrayBuffer(prekey.key)),
    );
    return new Uint8Array(Proteus.session.Session.encrypt(session, plaintext).serialise());
  }

  /** Decrypts the base64 `text` of an otr-message-add event sent with one of this device's prekeys. */
  async decrypt(text: string): Promise<string> {
    const envelope = Proteus.message.Envelope.deserialise(arrayBuffer(text));
    const store = new MemoryPreKeyStore(this.serialisedPrekeys);
    const [, plain] = await Proteus.session.Session.init_from_message(this.identity, store, envelope);
    return new TextDecoder().decode(plain);
  }
}
