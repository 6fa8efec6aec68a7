import * as Proteus from '@wireapp/proteus';

let ready: Promise<void> | undefined;

export interface ClientKeys {
  lastkey: { id: number; key: string };
  prekeys: Array<{ id: number; key: string }>;
}

/** Real Proteus prekeys of a new identity, serialised as the Wire API takes them. */
export async function proteusKeys(count = 5, first = 0): Promise<ClientKeys> {
  await (ready ??= Proteus.init());
  const identity = new Proteus.keys.IdentityKeyPair();
  const toApi = (pk: Proteus.keys.PreKey) => new Proteus.keys.PreKeyBundle(identity.public_key, pk).serialised_json();
  return {
    lastkey: toApi(Proteus.keys.PreKey.last_resort()),
    prekeys: Proteus.keys.PreKey.generate_prekeys(first, count).map(toApi),
  };
}
