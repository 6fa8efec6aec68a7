import type { D1Reader } from '../../db/client.js';
/** One team member as the CSV export lists them: membership, profile, inviter and devices. */
export interface ExportRow extends Record<string, unknown> {
  user: string;
  role: string;
  invited_at: number | null;
  name: string | null;
  handle: string | null;
  email: string | null;
  managed_by: string | null;
  status: string | null;
  /** wire's UserSSOId as JSON text: a SAML `tenant` and `subject`, or a `scim_external_id`. */
  sso_id: string | null;
  inviter_handle: string | null;
  num_devices: number;
  last_active: number | null;
}

const PAGE_SQL = `SELECT m.user, m.role, m.invited_at, u.name, u.handle, u.email, u.managed_by, u.status, u.sso_id, i.handle AS inviter_handle,
    (SELECT count(*) FROM clients c WHERE c.user = m.user) AS num_devices,
    (SELECT max(c.last_active) FROM clients c WHERE c.user = m.user) AS last_active
  FROM team_members m LEFT JOIN users u ON u.id = m.user LEFT JOIN users i ON i.id = m.invited_by
  WHERE m.team = ?1 AND m.user > ?2 ORDER BY m.user LIMIT ?3`;

/**
 * Up to `limit` members of the team whose ids follow `after` (the empty string starts), in id
 * order, from every partition of the directory (a member's row, clients and membership are in
 * theirs; an inviter of another partition shows no handle).
 */
export async function exportPage(
  partitions: readonly D1Reader[],
  team: string,
  after: string,
  limit: number,
): Promise<ExportRow[]> {
  const pages = await Promise.all(
    partitions.map(async (d1) => (await d1.prepare(PAGE_SQL).bind(team, after, limit).all<ExportRow>()).results),
  );
  return pages
    .flat()
    .sort((a, b) => (a.user < b.user ? -1 : 1))
    .slice(0, limit);
}
