/** A Proteus prekey as a client uploads it and a claim hands it out. */
export interface Prekey {
  id: number;
  key: string;
}

/** The prekey id a client keeps for last: handed out again and again, never deleted by a claim. */
export const LAST_RESORT_ID = 65535;

/** An MLS key package as the user's Account object keeps it. */
export interface KeyPackage {
  /** base64 of the package's reference (its hash): unique. */
  ref: string;
  client: string;
  cipherSuite: number;
  /** base64 of the package as uploaded. */
  data: string;
  /** End of the package's lifetime (seconds). */
  notAfter: number;
}

/** A package a claim handed out (and deleted). */
export interface ClaimedKeyPackage {
  client: string;
  ref: string;
  data: string;
}

/** What a user's clients hold for others to start sessions and groups with. */
export interface ClientMaterial {
  prekeys: Array<Prekey & { client: string }>;
  keyPackages: KeyPackage[];
}
