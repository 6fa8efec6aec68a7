import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { federationRemotes } from '../../../shared/db/schema.js';
import type { FederationDomainConfig } from './remote-config.js';

type Row = typeof federationRemotes.$inferSelect;

function toConfig(r: Row): FederationDomainConfig {
  return {
    domain: r.domain,
    search_policy: r.searchPolicy,
    restriction:
      r.restriction === 'allow_all'
        ? { tag: 'allow_all', value: null }
        : { tag: 'restrict_by_team', value: r.restrictionTeams },
  };
}

function toRow(c: FederationDomainConfig): Row {
  return {
    domain: c.domain,
    searchPolicy: c.search_policy,
    restriction: c.restriction.tag,
    restrictionTeams: c.restriction.tag === 'restrict_by_team' ? c.restriction.value : [],
  };
}

/** The dynamic list of remote backends (D1 table federation_remotes). */
export const remotesStore = {
  async list(db: Db): Promise<FederationDomainConfig[]> {
    const rows = await db.select().from(federationRemotes).orderBy(federationRemotes.domain);
    return rows.map(toConfig);
  },
  async upsert(db: Db, c: FederationDomainConfig): Promise<void> {
    const row = toRow(c);
    await db.insert(federationRemotes).values(row).onConflictDoUpdate({ target: federationRemotes.domain, set: row });
  },
  /** Returns false when the domain is not in the list. */
  async update(db: Db, c: FederationDomainConfig): Promise<boolean> {
    const updated = await db
      .update(federationRemotes)
      .set(toRow(c))
      .where(eq(federationRemotes.domain, c.domain))
      .returning({ domain: federationRemotes.domain });
    return updated.length > 0;
  },
  /** Returns false when the domain was not in the list. */
  async remove(db: Db, domain: string): Promise<boolean> {
    const removed = await db
      .delete(federationRemotes)
      .where(eq(federationRemotes.domain, domain))
      .returning({ domain: federationRemotes.domain });
    return removed.length > 0;
  },
  /** The teams of a remote restricted by team (none for an unknown remote). */
  async teams(db: Db, domain: string): Promise<string[]> {
    const [row] = await db
      .select({ teams: federationRemotes.restrictionTeams })
      .from(federationRemotes)
      .where(eq(federationRemotes.domain, domain));
    return row?.teams ?? [];
  },
  async addTeam(db: Db, domain: string, team: string): Promise<void> {
    const teams = await remotesStore.teams(db, domain);
    if (teams.includes(team)) return;
    await db
      .update(federationRemotes)
      .set({ restrictionTeams: [...teams, team] })
      .where(eq(federationRemotes.domain, domain));
  },
  async removeTeam(db: Db, domain: string, team: string): Promise<void> {
    const teams = await remotesStore.teams(db, domain);
    await db
      .update(federationRemotes)
      .set({ restrictionTeams: teams.filter((t) => t !== team) })
      .where(eq(federationRemotes.domain, domain));
  },
};
