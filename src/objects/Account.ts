import { DurableObject } from 'cloudflare:workers';
import { legacyMaterialStore } from '../shared/accounts/legacy-material-store.js';
import type { ClaimedKeyPackage, KeyPackage, Prekey } from '../shared/accounts/material.js';
import { database } from './db/drizzle.js';
import { KeyPackageStore } from './account/key-package-store.js';
import { MovedStore } from './account/moved-store.js';
import { PrekeyStore } from './account/prekey-store.js';

/**
 * One user's Account object (`ACCOUNTS.idFromName(user id)`): what the user's clients hold for
 * others, their Proteus prekeys and MLS key packages. It grows with the user alone and orders the
 * user's claims, so no two claimants get the same key (docs/architecture.md, "Where state lives").
 * Every call names the user: the first one moves the user's rows of earlier versions in from D1.
 */
export class Account extends DurableObject<Env> {
  private readonly prekeys: PrekeyStore;
  private readonly packages: KeyPackageStore;
  private readonly moved: MovedStore;
  private ready = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    this.prekeys = new PrekeyStore(sql);
    this.packages = new KeyPackageStore(sql);
    this.moved = new MovedStore(sql);
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

  /** One valid package of each client named that has one, each handed out once. */
  async claimKeyPackages(
    user: string,
    clients: readonly string[],
    suite: number,
    now: number,
  ): Promise<ClaimedKeyPackage[]> {
    await this.open(user);
    return this.ctx.storage.transactionSync(() =>
      clients.flatMap((client) => this.packages.claim(client, suite, now) ?? []),
    );
  }

  /** The client is gone: so is what it held. */
  async forgetClient(user: string, client: string): Promise<void> {
    await this.open(user);
    this.ctx.storage.transactionSync(() => {
      this.prekeys.forgetClient(client);
      this.packages.forgetClient(client);
    });
  }

  /** The account is gone: so is everything its clients held. */
  async forgetAll(user: string): Promise<void> {
    await this.open(user);
    this.ctx.storage.transactionSync(() => {
      this.prekeys.forgetAll();
      this.packages.forgetAll();
    });
  }

  /**
   * Moves the user's rows of earlier versions in (the sweep's call): a second call, after a crash
   * between storing them here and deleting them from D1, only deletes them.
   */
  async moveIn(user: string): Promise<void> {
    await this.open(user);
    await legacyMaterialStore.forget(database(this.env.DB), user);
  }

  /** Before the first call is answered, the user's rows of earlier versions are here (once). */
  private async open(user: string): Promise<void> {
    if (this.ready) return;
    await this.ctx.blockConcurrencyWhile(async () => {
      if (this.ready) return;
      const db = database(this.env.DB);
      const legacy = await legacyMaterialStore.ofUser(db, user);
      this.ctx.storage.transactionSync(() => {
        for (const k of legacy.prekeys) this.prekeys.put(k.client, [k]);
        this.packages.add(legacy.keyPackages);
        this.moved.mark(user, Date.now());
      });
      this.ready = true;
      // Moved: rows left in D1 by a failure here are deleted by the sweep's moveIn.
      if (legacy.prekeys.length + legacy.keyPackages.length > 0)
        await legacyMaterialStore
          .forget(db, user)
          .catch((err: unknown) => log('warn', 'moved rows stay in D1 until the sweep', { error: String(err) }));
    });
  }
}
