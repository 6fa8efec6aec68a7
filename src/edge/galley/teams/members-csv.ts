import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { self } from '../../api/self.js';
import { database, replicaSessionOf } from '../../db/client.js';
import { directoryOf } from '../../db/directory.js';
import { teamStore } from './team-store.js';
import { exportPage, type ExportRow } from './members-export-store.js';

const COLUMNS = [
  'display_name',
  'handle',
  'email',
  'role',
  'created_on',
  'invited_by',
  'idp_issuer',
  'managed_by',
  'saml_name_id',
  'scim_external_id',
  'scim_rich_info',
  'user_id',
  'num_devices',
  'last_active',
  'status',
] as const;

/** Rows read per query while streaming: the export is never held whole in memory. */
const PAGE = 500;

/** A CSV field, quoted; a leading = + - @ or control character is defused with `'` (formula injection). */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** The parts of the SSO id the export shows (an unreadable one shows none). */
function ssoParts(r: ExportRow): { tenant?: string; subject?: string; scim_external_id?: string } {
  try {
    const parsed: unknown = r.sso_id === null ? null : JSON.parse(r.sso_id);
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

function line(r: ExportRow): string {
  const sso = ssoParts(r);
  const values: Record<(typeof COLUMNS)[number], string> = {
    display_name: r.name ?? '',
    handle: r.handle ?? '',
    email: r.email ?? '',
    role: r.role,
    created_on: iso(r.invited_at),
    invited_by: r.inviter_handle ?? '',
    idp_issuer: sso.tenant ?? '',
    managed_by: r.managed_by ?? 'wire',
    saml_name_id: sso.subject ?? '',
    scim_external_id: sso.scim_external_id ?? '',
    scim_rich_info: '',
    user_id: r.user,
    num_devices: String(r.num_devices),
    last_active: iso(r.last_active),
    status: r.status ?? '',
  };
  return `${COLUMNS.map((c) => csvField(values[c])).join(',')}\r\n`;
}

/** `GET /teams/{tid}/members/csv`: owners and admins download the members, streamed page by page. */
export const getTeamMembersCsv = endpoint(
  {
    name: 'get-team-members-csv',
    method: 'get',
    path: '/teams/{tid}/members/csv',
    request: { params: z.object({ tid: z.uuid() }) },
    errors: [galleyErrors.resourceAccessDenied],
    responses: { 200: { description: 'CSV of team members', content: { 'text/csv': { schema: z.string() } } } },
  },
  async (c) => {
    const { tid } = c.req.valid('param');
    const role = await teamStore.roleOf(database(c.env.DB), tid, self(c).user);
    if (role !== 'owner' && role !== 'admin') throw new ApiError(galleyErrors.resourceAccessDenied);
    // Other members' rows, which may lag the primary by a moment: a session a replica may serve.
    const db = directoryOf(c.env).all.map(replicaSessionOf);
    const encoder = new TextEncoder();
    // The first page is read before the response starts, so a failing read is an error response,
    // not a cut-off file; the rest are read as the client takes them.
    let results = await exportPage(db, tid, '', PAGE);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(`${COLUMNS.join(',')}\r\n`));
      },
      async pull(controller) {
        if (results.length > 0) controller.enqueue(encoder.encode(results.map(line).join('')));
        if (results.length < PAGE) return controller.close();
        results = await exportPage(db, tid, results.at(-1)!.user, PAGE);
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/csv',
        'content-disposition': `attachment; filename="wire_team_members_${tid}.csv"`,
      },
    });
  },
);
