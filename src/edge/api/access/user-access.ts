/**
 * What other components may ask of brig about users, their clients and connections, in API
 * terms: qualified ids in, plain values and changes out. brig implements it; the runtime hands it
 * to every request (`Deps.users`), so no component imports brig to reach its users.
 */
import type { AccessClaims } from '../../auth/tokens.js';
import type { Change } from '../../effects/commit-change.js';
import type { Effect } from '../../effects/effect.js';
import type { QualifiedId } from '../schemas/common.js';
import type { AssetRef, UserStatus } from '../../../shared/db/schema.js';

/** What others need to know of a user's account. */
export interface Account {
  id: string;
  name: string;
  status: UserStatus;
  /** The team the user belongs to; null for personal users. */
  team: string | null;
  /** Whether an identity of theirs was verified (false for guests). */
  activated: boolean;
  supportedProtocols: ReadonlyArray<'proteus' | 'mls'>;
  /** A personal user's own conference calling setting, if brig set one. */
  conferenceCalling: 'enabled' | 'disabled' | null;
  /** Whether the account has a password (SSO users have none). */
  hasPassword: boolean;
  /** The identity provider's id of the user; null for users who do not sign in with SSO. */
  ssoId: unknown;
  handle: string | null;
  accentId: number;
  locale: string;
  /** A bot's account (added to a conversation by its service), rather than a person's. */
  bot: boolean;
}

/** A client's MLS signature key of one scheme. */
export interface MlsClientKey {
  client: string;
  /** base64; undefined for a client without a key of the scheme. */
  signatureKey: string | undefined;
  /** Whether it has a key package of the suite left: a commit adding its user must add it. */
  hasKeyPackages: boolean;
}

/** A Proteus prekey, as a device's owner or its service hands it over. */
interface Prekey {
  id: number;
  key: string;
}

/** A bot's account: a user naming its service, with one client holding the prekeys its service gave. */
export interface NewBot {
  id: string;
  client: string;
  name: string;
  accentId: number;
  assets: AssetRef[];
  locale: string;
  service: { id: string; provider: string };
  prekeys: readonly Prekey[];
}

/** An action a team may guard with a second-factor code. */
type VerifiedAction = 'login' | 'create_scim_token' | 'delete_team';

export interface UserAccess {
  /** A user's account, if this backend has it. */
  account(user: QualifiedId): Promise<Account | undefined>;
  /** The accounts this backend has of these users. */
  accounts(users: readonly QualifiedId[]): Promise<Account[]>;

  /** Whether `user` is connected (both sides accepted) with every one of `others`. */
  connectedToAll(user: QualifiedId, others: readonly QualifiedId[]): Promise<boolean>;
  /** Whether two users are connected (both sides accepted). */
  areConnected(a: QualifiedId, b: QualifiedId): Promise<boolean>;
  /** Whether `blocker` has blocked `blocked`. */
  hasBlocked(blocker: QualifiedId, blocked: QualifiedId): Promise<boolean>;
  /** A user's accepted connections. */
  contactsOf(user: QualifiedId): Promise<QualifiedId[]>;
  /** The local users with a connection (of any status) to users of another backend. */
  usersConnectedTo(domain: string): Promise<string[]>;
  /** Forgets every connection to users of another backend (de-federation). */
  forgetConnectionsTo(domain: string): Promise<void>;
  /** Whether this backend federates with another. */
  federatesWith(domain: string): Promise<boolean>;

  /** The clients of these local users, each as its user and client id. */
  clientsOf(users: readonly QualifiedId[]): Promise<Array<{ user: QualifiedId; client: string }>>;
  /** The client ids of another backend's users, asked of it. */
  remoteClientIdsOf(domain: string, users: readonly string[]): Promise<Record<string, string[]>>;
  /** A user's clients with their MLS signature keys of a suite's scheme (a remote user's from their backend). */
  mlsClientKeys(user: QualifiedId, suite: number): Promise<MlsClientKey[]>;
  /** One client's MLS signature key of a suite's scheme, if it has one (a remote user's from their backend). */
  mlsSignatureKey(user: QualifiedId, client: string, suite: number): Promise<string | undefined>;
  /** Marks a client active (its user fetched notifications with its id); unknown clients are ignored. */
  touchClient(user: QualifiedId, client: string): Promise<void>;

  /** Whether a password is the user's, after a rate-limit token (false without a password). */
  checkPassword(user: string, password: string): Promise<boolean>;
  /** Demands a valid second-factor code for an action when the user's team requires one (403 otherwise). */
  enforceVerificationCode(user: string, action: VerifiedAction, code: string | undefined): Promise<void>;
  /**
   * Deletes an account for good; the user, their contacts and `teamAdmins` hear of it, and
   * `also` is carried out with the deletion. A user this backend does not have is left alone.
   */
  deleteAccount(
    user: string,
    o?: { origin?: AccessClaims; teamAdmins?: readonly string[]; also?: readonly Effect[] },
  ): Promise<void>;

  /** The client id a legal hold device with this last prekey will have. */
  legalholdClientId(lastPrekey: Prekey): Promise<string>;
  /** The request of a legal hold device, announced with the change that records it. */
  legalholdRequestAnnounced(o: { user: string; team: string; lastPrekey: Prekey }): Promise<Change>;
  /** Adds the legal hold device (replacing an older one) and announces it, as one change; its id. */
  addLegalholdDevice(o: {
    user: string;
    team: string;
    prekeys: readonly Prekey[];
    lastPrekey: Prekey;
    origin?: AccessClaims;
  }): Promise<string>;
  /** Removes the user's legal hold devices and their service's cookies, as a change. */
  removingLegalholdDevices(o: { user: string; team: string }): Promise<Change>;
  /** A cookie for the user's legal hold service. */
  legalholdCookie(user: string): Promise<string>;
  /** Blocks the user's connections with users who have not consented to legal hold, as a change. */
  blockingNonConsenting(user: string): Promise<Change>;
  /** Unblocks the connections legal hold blocked, as a change. */
  unblockingInvolving(user: string): Promise<Change>;

  /** The client id a bot's one client has. */
  botClientId(bot: string): Promise<string>;
  /** Writes a bot's account, client and prekeys as one change. */
  createBotAccount(bot: NewBot): Promise<void>;
  /** A bot's account ends (its service disowned it, or it left its conversation). */
  deleteBotAccount(bot: string): Promise<void>;
}
