import { DurableObject } from 'cloudflare:workers';
import { claimStandingStore } from '../shared/accounts/claim-standing-store.js';
import { legacyAccountStore } from '../shared/accounts/legacy-account-store.js';
import type {
  ConnectionRecord,
  Consent,
  CookieRecord,
  CookieSelection,
  KeyPackage,
  KeyPackageClaim,
  Prekey,
  Relation,
} from '../shared/accounts/material.js';
import { database } from './db/drizzle.js';
import { ClaimableStore } from './account/claimable-store.js';
import { ConnectionStore } from './account/connection-store.js';
import { ConsentStore } from './account/consent-store.js';
import { ConversationListStore } from './account/conversation-list-store.js';
import type { QualifiedRef } from '../shared/proteus/types.js';
import { PropertyStore } from './account/property-store.js';
import { CookieStore } from './account/cookie-store.js';
import { KeyPackageStore } from './account/key-package-store.js';
import { MovedStore } from './account/moved-store.js';
import { PrekeyStore } from './account/prekey-store.js';
import { partitionOf } from '../shared/db/partitions.js';
import { directoryOf } from './db/directory.js';

/**
 * One user's Account object (`ACCOUNTS.idFromName(user id)`): what the user's clients hold for
 * others, their Proteus prekeys and MLS key packages; the user's `zuid` cookies, their side of
 * each connection, their properties and consents, and the ids of their conversations. It grows with
 * the user alone and orders the user's claims, so no two claimants get the same key
 * (docs/architecture.md, "Where state lives").
 * Every call names the user: the first one moves the user's rows of earlier versions in from D1.
 */
export class Account extends DurableObject<Env> {
  private readonly prekeys: PrekeyStore;
  private readonly packages: KeyPackageStore;
  private readonly cookies: CookieStore;
  private readonly connections: ConnectionStore;
  private readonly properties: PropertyStore;
  private readonly consents: ConsentStore;
  private readonly conversations: ConversationListStore;
  private readonly moved: MovedStore;
  private readonly claimable: ClaimableStore;
  private ready = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    this.prekeys = new PrekeyStore(sql);
    this.packages = new KeyPackageStore(sql);
    this.cookies = new CookieStore(sql);
    this.connections = new ConnectionStore(sql);
    this.properties = new PropertyStore(sql);
    this.consents = new ConsentStore(sql);
    this.conversations = new ConversationListStore(sql);
    this.moved = new MovedStore(sql);
    this.claimable = new ClaimableStore(sql);
    this.ready = this.moved.has();
  }

  async putPrekeys(user: string, client: string, keys: readonly Prekey[]): Promise<void> {
    await this.open(user);
    this.ctx.storage.transactionSync(() => this.prekeys.put(client, keys));
  }

  async prekeyIds(user: string, client: string): Promise<number[]> {
    await this.open(user);
    return this.prekeys.ids(client);
  }

  /** One prekey of each client named (null for a client without any), each handed out once. */
  async claimPrekeys(user: string, clients: readonly string[]): Promise<Record<string, Prekey | null>> {
    await this.open(user);
    return this.ctx.storage.transactionSync(() =>
      Object.fromEntries(clients.map((client) => [client, this.prekeys.claim(client) ?? null])),
    );
  }

  /** One prekey of each of the user's clients, by client id, each handed out once. */
  async claimPrekeyBundle(user: string): Promise<Array<{ client: string; prekey: Prekey }>> {
    await this.open(user);
    return this.ctx.storage.transactionSync(() =>
      this.prekeys.clients().flatMap((client) => {
        const prekey = this.prekeys.claim(client);
        return prekey === undefined ? [] : [{ client, prekey }];
      }),
    );
  }

  /** Stores packages; `replacing` names suites of a client whose packages they replace. */
  async addKeyPackages(
    user: string,
    packages: readonly KeyPackage[],
    replacing?: { client: string; suites: readonly number[] },
  ): Promise<void> {
    await this.open(user);
    this.ctx.storage.transactionSync(() => {
      if (replacing !== undefined) this.packages.deleteSuites(replacing.client, replacing.suites);
      this.packages.add(packages);
    });
  }

  async deleteKeyPackages(user: string, client: string, suite: number, refs: readonly string[]): Promise<void> {
    await this.open(user);
    this.ctx.storage.transactionSync(() => this.packages.deleteRefs(client, suite, refs));
  }

  async countKeyPackages(user: string, client: string, suite: number, now: number): Promise<number> {
    await this.open(user);
    return this.packages.count(client, suite, now);
  }

  async clientsWithKeyPackages(user: string, suite: number, now: number): Promise<string[]> {
    await this.open(user);
    return this.packages.clientsWith(suite, now);
  }

  /**
   * One valid package of the suite of each of the user's clients that has one (`skip` left out),
   * by client id; none when the user may not be claimed (inactive, or under legal hold).
   */
  async claimKeyPackages(user: string, suite: number, now: number, skip?: string): Promise<KeyPackageClaim> {
    await this.open(user);
    const standing = await this.claimStanding(user);
    if (standing !== 'claimable') return { refused: standing };
    const claimed = this.ctx.storage.transactionSync(() =>
      this.packages
        .clientsWith(suite, now)
        .filter((client) => client !== skip)
        .flatMap((client) => this.packages.claim(client, suite, now) ?? []),
    );
    return { claimed };
  }

  /**
   * The user's status or legal hold changed in the directory (or may have): the next claim asks
   * it again. Called after the change is committed (an effect), so that no claim keeps the old word.
   */
  async claimStandingChanged(user: string): Promise<void> {
    await this.open(user);
    this.claimable.forget();
  }

  /** Records a new cookie; beyond `limit` of its kind, the user's oldest go (see CookieStore.evictBeyond). */
  async issueCookie(cookie: CookieRecord, limit: number): Promise<void> {
    await this.open(cookie.user);
    this.ctx.storage.transactionSync(() => {
      this.cookies.put(cookie);
      this.cookies.evictBeyond(cookie.kind, limit, Math.floor(Date.now() / 1000));
    });
  }

  /** The cookie on record that `id` stands for: itself, or the successor that replaced it. */
  async liveCookie(user: string, id: number): Promise<CookieRecord | undefined> {
    await this.open(user);
    const cookie = this.cookies.get(user, id);
    return cookie?.successor == null ? cookie : this.cookies.get(user, cookie.successor);
  }

  /** The user's cookies, oldest first. */
  async cookieList(user: string): Promise<CookieRecord[]> {
    await this.open(user);
    return this.cookies.list(user);
  }

  /** Binds the cookie's access tokens to a client. */
  async bindCookie(user: string, id: number, client: string): Promise<void> {
    await this.open(user);
    this.cookies.update(id, { client });
  }

  /** Replaces cookie `id` by `next` (bound to the same client), which it stands for from now on. */
  async renewCookie(user: string, id: number, next: CookieRecord, limit: number): Promise<void> {
    await this.open(user);
    this.ctx.storage.transactionSync(() => {
      const old = this.cookies.get(user, id);
      this.cookies.put({ ...next, client: old?.client ?? null });
      this.cookies.update(id, { successor: next.id });
      this.cookies.evictBeyond(next.kind, limit, Math.floor(Date.now() / 1000));
    });
  }

  async revokeCookies(user: string, which: CookieSelection = {}): Promise<void> {
    await this.open(user);
    this.ctx.storage.transactionSync(() => this.cookies.revoke(which));
  }

  async connection(user: string, domain: string, to: string): Promise<ConnectionRecord | undefined> {
    await this.open(user);
    return this.connections.get(user, domain, to);
  }

  /** The user's connections with one of these statuses (all when none is named), by (domain, user). */
  async connectionList(user: string, statuses?: readonly Relation[]): Promise<ConnectionRecord[]> {
    await this.open(user);
    return this.connections.list(user, statuses);
  }

  /** How many of the user's connections have one of these statuses. */
  async connectionCount(user: string, statuses: readonly Relation[]): Promise<number> {
    await this.open(user);
    return this.connections.count(statuses);
  }

  /** The user's connections to these users of `domain` with one of these statuses. */
  async connectionsAmong(
    user: string,
    domain: string,
    others: readonly string[],
    statuses: readonly Relation[],
  ): Promise<ConnectionRecord[]> {
    await this.open(user);
    return this.connections.among(user, domain, others, statuses);
  }

  async connectionPage(
    user: string,
    size: number,
    after?: { domain: string; user: string },
  ): Promise<ConnectionRecord[]> {
    await this.open(user);
    return this.connections.page(user, size, after);
  }

  /** Records the user's side of a connection, unless a newer record is here. */
  async putConnection(record: ConnectionRecord): Promise<void> {
    await this.open(record.fromUser);
    this.connections.put(record);
  }

  /** Forgets the connection to `domain/to`, unless it changed after `at` (ms). */
  async forgetConnection(user: string, domain: string, to: string, at: number): Promise<void> {
    await this.open(user);
    this.connections.forget(domain, to, at);
  }

  /** Forgets the connections to users of `domain`. */
  async forgetConnectionsTo(user: string, domain: string): Promise<void> {
    await this.open(user);
    this.connections.forgetDomain(domain);
  }

  async property(user: string, key: string): Promise<string | undefined> {
    await this.open(user);
    return this.properties.get(key);
  }

  /** Keys and values (JSON text), by key. */
  async propertyList(user: string): Promise<Array<{ key: string; value: string }>> {
    await this.open(user);
    return this.properties.all();
  }

  /** How many keys the user has besides `key` (the limit counts them before a write). */
  async propertyCountBesides(user: string, key: string): Promise<number> {
    await this.open(user);
    return this.properties.countBesides(key);
  }

  /** Sets (or, with null, deletes) a property, unless it was written or cleared after `at` (ms). */
  async putProperty(user: string, key: string, value: string | null, at: number): Promise<void> {
    await this.open(user);
    this.properties.put(key, value, at);
  }

  /** Deletes every property written before `at` (ms). */
  async clearProperties(user: string, at: number): Promise<void> {
    await this.open(user);
    this.properties.clear(at);
  }

  async consentList(user: string): Promise<Consent[]> {
    await this.open(user);
    return this.consents.all();
  }

  /** Replaces the user's answer of this type. */
  async setConsent(user: string, consent: Consent): Promise<void> {
    await this.open(user);
    this.consents.set(consent);
  }

  /** The client is gone: so is what it held. */
  async forgetClient(user: string, client: string): Promise<void> {
    await this.open(user);
    this.ctx.storage.transactionSync(() => {
      this.prekeys.forgetClient(client);
      this.packages.forgetClient(client);
    });
  }

  /** The account is gone: so is everything its clients held, and its cookies. */
  async forgetAll(user: string): Promise<void> {
    await this.open(user);
    this.ctx.storage.transactionSync(() => {
      this.prekeys.forgetAll();
      this.packages.forgetAll();
      this.cookies.revoke({});
      this.connections.forgetAll();
      this.properties.clear(Date.now());
      this.consents.forgetAll();
      this.conversations.forgetAll();
      this.claimable.forget();
    });
  }

  /**
   * The user joined or left a conversation at `at` (an effect of the change; a later word wins).
   * It needs none of the rows earlier versions left in D1, so it does not move them in: an
   * account's first conversation (its self conversation, made with it) leaves them for its first
   * real call, whose copy of conversation ids (time 0) never overrides this word.
   */
  async conversationMembership(user: QualifiedRef, conv: QualifiedRef, member: boolean, at: number): Promise<void> {
    this.ctx.storage.transactionSync(() => {
      this.conversations.keepOwnDomain(user.domain);
      this.conversations.put(conv, member, at);
    });
  }

  /** The user's conversations ordered by (domain, id), after a position: the list-ids pages. */
  async conversationIds(user: string, size: number, after?: QualifiedRef): Promise<QualifiedRef[]> {
    await this.open(user);
    return this.conversations.page(size, after);
  }

  /** The user's conversations of one domain, ordered by id after `start`: older versions' pages. */
  async conversationIdsIn(user: string, domain: string, size: number, start?: string): Promise<string[]> {
    await this.open(user);
    return this.conversations.pageIn(domain, size, start);
  }

  /**
   * Moves the user's rows of earlier versions in (the sweep's call). After a crash between copying
   * them here and deleting them from D1, only deletes them; rows an older version still running
   * wrote after the move (during a deployment) are copied in as the first ones were.
   */
  async moveIn(user: string): Promise<void> {
    await this.open(user);
    await this.ctx.blockConcurrencyWhile(async () => {
      if (this.moved.pending()) await this.forgetInD1(user);
      else await this.moveFromD1(user);
    });
  }

  /** Whether the user may be claimed: the kept yes, or the directory's word (kept when it is yes). */
  private async claimStanding(user: string) {
    if (this.claimable.known()) return 'claimable';
    const generation = this.claimable.generation();
    // The user's row and membership are in the partition of their slot.
    const standing = await claimStandingStore.of(database(partitionOf(directoryOf(this.env), user)), user);
    if (standing === 'claimable') this.claimable.keep(generation, Date.now());
    return standing;
  }

  /** Before the first call is answered, the user's rows of earlier versions are here (once). */
  private async open(user: string): Promise<void> {
    if (this.ready) return;
    await this.ctx.blockConcurrencyWhile(async () => {
      if (this.ready) return;
      await this.moveFromD1(user);
      this.ready = true;
    });
  }

  /** Copies the user's D1 rows in and marks them copied (one transaction), then deletes them there. */
  private async moveFromD1(user: string): Promise<void> {
    const legacy = await legacyAccountStore.ofUser(database(this.env.DB), user, this.conversations.ownDomain());
    const found =
      legacy.prekeys.length +
        legacy.keyPackages.length +
        legacy.cookies.length +
        legacy.connections.length +
        legacy.properties.length +
        legacy.consents.length >
      0;
    this.ctx.storage.transactionSync(() => {
      for (const k of legacy.prekeys) this.prekeys.put(k.client, [k]);
      this.packages.add(legacy.keyPackages);
      for (const c of legacy.cookies) this.cookies.put(c);
      for (const c of legacy.connections) this.connections.put(c);
      // Written before any write of this version: any of those is newer.
      for (const p of legacy.properties) this.properties.put(p.key, p.value, 0);
      for (const c of legacy.consents) this.consents.set(c);
      // At time 0: every membership change since was made in D1 first, so its effect is newer.
      for (const c of legacy.conversations) this.conversations.put(c, true, 0);
      this.moved.mark(user, Date.now(), found);
    });
    if (found) await this.forgetInD1(user);
  }

  /** Deletes the copied rows from D1; on failure they stay marked pending, for the sweep. */
  private async forgetInD1(user: string): Promise<void> {
    try {
      await legacyAccountStore.forget(database(this.env.DB), user);
      this.moved.settle();
    } catch (err) {
      console.warn('moved rows stay in D1 until the sweep:', String(err));
    }
  }
}
