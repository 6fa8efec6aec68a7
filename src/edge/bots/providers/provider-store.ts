import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { providers, services, serviceWhitelist } from '../../../shared/db/schema-providers.js';

export type ProviderRow = typeof providers.$inferSelect;
export type ServiceRow = typeof services.$inferSelect;

const whitelistKey = (team: string, provider: string, service: string) =>
  and(eq(serviceWhitelist.team, team), eq(serviceWhitelist.provider, provider), eq(serviceWhitelist.service, service));

/** Service providers, their services and the teams' whitelists (D1 tables providers, services, service_whitelist). */
export const providerStore = {
  async byId(db: Db, id: string): Promise<ProviderRow | undefined> {
    const [row] = await db.select().from(providers).where(eq(providers.id, id));
    return row;
  },
  /** The provider holding this address, activated or waiting for activation. */
  async byEmail(db: Db, email: string): Promise<ProviderRow | undefined> {
    const [row] = await db
      .select()
      .from(providers)
      .where(or(eq(providers.email, email), eq(providers.pendingEmail, email)));
    return row;
  },
  insert(db: Db, row: ProviderRow) {
    return db.insert(providers).values(row);
  },
  update(db: Db, id: string, patch: Partial<Omit<ProviderRow, 'id'>>) {
    return db.update(providers).set(patch).where(eq(providers.id, id));
  },
  delete(db: Db, id: string) {
    return [
      db.delete(serviceWhitelist).where(eq(serviceWhitelist.provider, id)),
      db.delete(services).where(eq(services.provider, id)),
      db.delete(providers).where(eq(providers.id, id)),
    ];
  },

  async service(db: Db, provider: string, id: string): Promise<ServiceRow | undefined> {
    const [row] = await db
      .select()
      .from(services)
      .where(and(eq(services.provider, provider), eq(services.id, id)));
    return row;
  },
  async servicesOf(db: Db, provider: string): Promise<ServiceRow[]> {
    return db.select().from(services).where(eq(services.provider, provider)).orderBy(asc(services.createdAt));
  },
  insertService(db: Db, row: ServiceRow) {
    return db.insert(services).values(row);
  },
  updateService(db: Db, provider: string, id: string, patch: Partial<Omit<ServiceRow, 'id' | 'provider'>>) {
    return db
      .update(services)
      .set(patch)
      .where(and(eq(services.provider, provider), eq(services.id, id)));
  },
  deleteService(db: Db, provider: string, id: string) {
    return [
      db.delete(serviceWhitelist).where(and(eq(serviceWhitelist.provider, provider), eq(serviceWhitelist.service, id))),
      db.delete(services).where(and(eq(services.provider, provider), eq(services.id, id))),
    ];
  },
  /** Every enabled service, by name (searches by name prefix or tags filter them). */
  async enabled(db: Db): Promise<ServiceRow[]> {
    return db.select().from(services).where(eq(services.enabled, true)).orderBy(asc(services.name));
  },

  async whitelisted(db: Db, team: string, provider: string, service: string): Promise<boolean> {
    const rows = await db
      .select({ team: serviceWhitelist.team })
      .from(serviceWhitelist)
      .where(whitelistKey(team, provider, service));
    return rows.length > 0;
  },
  /** The team's whitelisted services, by name whatever its case (as wire lists them). */
  async whitelistOf(db: Db, team: string): Promise<ServiceRow[]> {
    const rows = await db
      .select({ s: services })
      .from(serviceWhitelist)
      .innerJoin(
        services,
        and(eq(services.provider, serviceWhitelist.provider), eq(services.id, serviceWhitelist.service)),
      )
      .where(eq(serviceWhitelist.team, team))
      .orderBy(sql`lower(${services.name})`, asc(services.name));
    return rows.map((r) => r.s);
  },
  whitelist(db: Db, team: string, provider: string, service: string) {
    return db.insert(serviceWhitelist).values({ team, provider, service }).onConflictDoNothing();
  },
  unwhitelist(db: Db, team: string, provider: string, service: string) {
    return db.delete(serviceWhitelist).where(whitelistKey(team, provider, service));
  },
};
