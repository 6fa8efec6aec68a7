import type { FeatureStatus } from '../../galley/face.js';

export interface SearchHit extends Record<string, unknown> {
  id: string;
  name: string;
  handle: string | null;
  accent_id: number;
  team: string | null;
}

/** Who searches: their id, their team, and whether their team hides everyone outside it. */
export interface Searcher {
  id: string;
  team: string | null;
  ownTeamOnly: boolean;
}

const COLUMNS = 'u.id, u.name, u.handle, u.accent_id, u.team';
const LIVE = "u.activated = 1 AND u.status = 'active'";

/**
 * The FTS5 MATCH expression for a query: every word as a prefix (`"word"*`), all required. Words
 * are letters, digits and underscores only, so nothing in the query reaches FTS5's syntax.
 */
export function matchExpression(q: string): string | undefined {
  const words = q
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean)
    .slice(0, 8);
  return words.length === 0 ? undefined : words.map((w) => `"${w}"*`).join(' ');
}

/**
 * Whether a user of another team may be found: that team's searchVisibilityInbound, `enabled`
 * meaning searchable by all teams. A locked feature, or none stored, takes the server default.
 */
const INBOUND_OPEN = `(SELECT CASE WHEN f.lock_status = 'locked' OR f.status IS NULL THEN ?3 ELSE f.status END
  FROM team_features f WHERE f.team = u.team AND f.name = 'searchVisibilityInbound')`;

/** What a search reads with: the database, or a read session of it (searches may read a replica). */
type Reader = Pick<D1Database, 'prepare'>;

export const searchStore = {
  /** Exact handle: found by anyone, unless the searcher's team hides outsiders. */
  async byHandle(db: Reader, s: Searcher, handle: string): Promise<SearchHit | undefined> {
    const row = await db
      .prepare(
        `SELECT ${COLUMNS} FROM users u WHERE u.handle = ?1 AND ${LIVE} AND u.id != ?2 AND (?3 IS NULL OR u.team = ?3)`,
      )
      .bind(handle, s.id, s.ownTeamOnly ? s.team : null)
      .first<SearchHit>();
    return row ?? undefined;
  },

  /** Name and handle prefixes over searchable users, honouring both visibility rules, best first. */
  async byPrefix(
    db: Reader,
    s: Searcher,
    match: string,
    inboundDefault: FeatureStatus,
    size: number,
  ): Promise<Array<SearchHit & { rank: number }>> {
    const sql = `SELECT ${COLUMNS}, rank FROM user_search JOIN users u ON u.rowid = user_search.rowid
      WHERE user_search MATCH ?1 AND ${LIVE} AND u.searchable = 1 AND u.id != ?2
        AND (?4 IS NULL OR u.team = ?4)
        AND (u.team IS NULL OR u.team = ?5 OR COALESCE(${INBOUND_OPEN}, ?3) = 'enabled')
      ORDER BY rank LIMIT ?6`;
    const { results } = await db
      .prepare(sql)
      .bind(match, s.id, inboundDefault, s.ownTeamOnly ? s.team : null, s.team, size)
      .all<SearchHit & { rank: number }>();
    return results;
  },
};
