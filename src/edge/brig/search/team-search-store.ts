import type { D1Reader } from '../../db/client.js';
/** The roles a team search can filter by. */
export const TEAM_ROLES = ['owner', 'admin', 'member', 'partner'] as const;

/** What a team search may sort by, as SQL over team_members `m` joined with users `u`. */
export const TEAM_SORT_COLUMNS = {
  name: 'lower(u.name)',
  handle: "coalesce(u.handle, '')",
  email: "lower(coalesce(u.email, u.email_unvalidated, ''))",
  saml_idp: "''",
  managed_by: 'u.managed_by',
  role: 'm.role',
  created_at: 'coalesce(m.invited_at, 0)',
} as const;

type TeamSortKey = keyof typeof TEAM_SORT_COLUMNS;

export interface TeamMemberRow extends Record<string, unknown> {
  id: string;
  name: string;
  handle: string | null;
  email: string | null;
  email_unvalidated: string | null;
  accent_id: number;
  managed_by: string;
  role: string;
  created_at: number | null;
  sort_key: string | number;
}

/** Paging positions: the last row's sort value and id, unique together. */
export type TeamSearchPosition = [string | number, string];

export interface TeamSearchQuery {
  team: string;
  roles: readonly string[];
  /** `verified`: a verified email and none awaiting verification; `unverified`: one awaiting verification. */
  email?: 'verified' | 'unverified' | undefined;
  /** Lower-cased, trimmed; empty matches everyone. */
  q: string;
  sortBy: TeamSortKey;
  desc: boolean;
  after: TeamSearchPosition | undefined;
  size: number;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A team's live members by name, handle or email prefix (or a word of the name), in the chosen
 * order: up to `size + 1` rows after `after`, and how many match in all. Each partition of the
 * directory (`partitions`, one reader each) answers for its members; their pages are merged.
 */
export async function teamSearchPage(
  partitions: readonly D1Reader[],
  s: TeamSearchQuery,
): Promise<{ rows: TeamMemberRow[]; total: number }> {
  const pages = await Promise.all(partitions.map((d1) => partitionPage(d1, s)));
  const order = s.desc ? -1 : 1;
  const rows = pages
    .flatMap((p) => p.rows)
    .sort((a, b) => order * (compare(a.sort_key, b.sort_key) || compare(a.id, b.id)))
    .slice(0, s.size + 1);
  return { rows, total: pages.reduce((sum, p) => sum + p.total, 0) };
}

/** SQLite's order of two sort values: numbers before text, text by its characters. */
function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

async function partitionPage(d1: D1Reader, s: TeamSearchQuery): Promise<{ rows: TeamMemberRow[]; total: number }> {
  const sortKey = TEAM_SORT_COLUMNS[s.sortBy];
  const email =
    s.email === undefined
      ? ''
      : s.email === 'verified'
        ? 'AND u.email IS NOT NULL AND u.email_unvalidated IS NULL'
        : 'AND u.email_unvalidated IS NOT NULL';
  const filter = `m.team = ?1 AND u.status != 'deleted' AND m.role IN (SELECT value FROM json_each(?2)) ${email}
      AND (?3 = '' OR lower(u.name) LIKE ?4 ESCAPE '\\' OR lower(u.name) LIKE ?5 ESCAPE '\\' OR u.handle LIKE ?4 ESCAPE '\\' OR lower(coalesce(u.email, '')) LIKE ?4 ESCAPE '\\')`;
  const base = [s.team, JSON.stringify(s.roles), s.q, `${likeEscape(s.q)}%`, `% ${likeEscape(s.q)}%`];
  const paging = s.after === undefined ? '' : `AND (${sortKey}, u.id) ${s.desc ? '<' : '>'} (?6, ?7)`;
  const order = s.desc ? 'DESC' : 'ASC';
  const [{ results }, total] = await Promise.all([
    d1
      .prepare(
        `SELECT u.id, u.name, u.handle, u.email, u.email_unvalidated, u.accent_id, u.managed_by, m.role, m.invited_at AS created_at, ${sortKey} AS sort_key
           FROM team_members m JOIN users u ON u.id = m.user WHERE ${filter} ${paging}
           ORDER BY sort_key ${order}, u.id ${order} LIMIT ${s.size + 1}`,
      )
      .bind(...base, ...(s.after ?? []))
      .all<TeamMemberRow>(),
    d1
      .prepare(`SELECT count(*) AS n FROM team_members m JOIN users u ON u.id = m.user WHERE ${filter}`)
      .bind(...base)
      .first<{ n: number }>(),
  ]);
  return { rows: results, total: total?.n ?? 0 };
}
