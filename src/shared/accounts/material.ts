import type { Relation } from '../db/schema.js';

export type { Relation };

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

/** What earlier versions kept of a user in D1 that their Account object holds now. */
export interface LegacyAccountRows {
  prekeys: Array<Prekey & { client: string }>;
  keyPackages: KeyPackage[];
  cookies: CookieRecord[];
  connections: ConnectionRecord[];
  properties: Array<{ key: string; value: string }>;
  consents: Consent[];
  /** The conversations the user is in: copied, not moved (their members stay in D1 for now). */
  conversations: Array<{ domain: string; id: string }>;
}

/** A `zuid` cookie's record: what `/access` checks and `/cookies/remove` revokes. */
export interface CookieRecord {
  user: string;
  id: number;
  kind: 'persistent' | 'session';
  label: string | null;
  /** ms since the epoch */
  createdAt: number;
  /** s since the epoch */
  expiresAt: number;
  /** The cookie that replaced it at `/access` (it stands for that one). */
  successor: number | null;
  /** The client its access tokens are bound to. */
  client: string | null;
  /** Held by a legal hold service: its access tokens reach only what the device needs. */
  legalhold: boolean;
}

/** Which of a user's cookies to revoke: those matching any id or label, or all when none is given. */
export interface CookieSelection {
  ids?: readonly number[];
  labels?: readonly string[];
  /** Only the legal hold service's. */
  legalhold?: boolean;
}

/**
 * Whether others may claim the user's key packages: only an active user's, and not while legal
 * hold is pending or enabled for them (legal hold records Proteus; MLS groups have no place for it).
 */
export type ClaimStanding = 'claimable' | 'inactive' | 'legalhold';

/** What a key package claim got: a package of each client that had one, or why none were given. */
export type KeyPackageClaim = { claimed: ClaimedKeyPackage[] } | { refused: Exclude<ClaimStanding, 'claimable'> };

/** One side of a connection: the user's own record of it, kept in their Account object. */
export interface ConnectionRecord {
  fromUser: string;
  toDomain: string;
  toUser: string;
  status: Relation;
  convDomain: string | null;
  convId: string | null;
  /** ms since the epoch: a record never gives way to an older one (effects may be carried out late). */
  lastUpdate: number;
  /** While legal hold blocks the connection: its status before (see brig/legalhold/connection-blocks.ts). */
  statusBeforeLegalhold: Relation | null;
}

/** A user's answer to one type of consent (`/self/consent`). */
export interface Consent {
  type: number;
  value: number;
  source: string;
}
