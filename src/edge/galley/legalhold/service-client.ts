// The external legal hold service's API, as wire speaks it: `GET /status` when a team registers
// it, then `initiate`, `confirm` and `remove`, in v0 (`/initiate`) or v1 (`/v1/initiate`, qualified
// ids), whichever is the highest both sides speak, asked (`GET /api-version`) before each call.
import { z } from 'zod';
import type { Config } from '../../../shared/config/index.js';
import { ApiError } from '../../api/errors/api-error.js';
import { legalholdErrors } from '../../api/errors/legalhold.js';
import { callIntegration, type IntegrationReply } from '../../integrations/pinned-client.js';
import type { LegalholdService, Prekey } from './legalhold-store.js';

const SUPPORTED = [0, 1] as const;
type Version = (typeof SUPPORTED)[number];

type Target = Pick<LegalholdService, 'baseUrl' | 'fingerprint' | 'authToken'>;

const prekey = z.object({ id: z.int().min(0).max(65535), key: z.string().min(1) });
const initiated = z.object({ prekeys: z.array(prekey), last_prekey: prekey.refine((p) => p.id === 65535) });

/** `base_url`'s path, one slash, the endpoint: wire's way of joining them. */
function urlOf(base: string, endpoint: string): string {
  const u = new URL(base);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/${endpoint}`;
  return u.toString();
}

const unavailable = (why: string) =>
  new ApiError(legalholdErrors.unavailable, `legal hold service unavailable with underlying error: ${why}`);

/** The answer of a call that must succeed: an unreachable service or a non-2xx answer is 412. */
function succeeded(reply: IntegrationReply): string {
  if (!reply.ok) throw unavailable(reply.why);
  if (reply.status < 200 || reply.status > 299) throw unavailable(`the service answered ${reply.status}`);
  return reply.body;
}

async function call(
  config: Config,
  t: Target,
  method: 'GET' | 'POST',
  endpoint: string,
  body?: unknown,
): Promise<IntegrationReply> {
  return callIntegration(config, {
    url: urlOf(t.baseUrl, endpoint),
    method,
    headers: { authorization: `Bearer ${t.authToken}` },
    fingerprint: t.fingerprint,
    ...(body === undefined ? {} : { body }),
  });
}

/** Whether the service answers `GET /status` (asked without credentials, as wire does). */
export async function checkServiceStatus(config: Config, t: Omit<Target, 'authToken'>): Promise<void> {
  const reply = await callIntegration(config, {
    url: urlOf(t.baseUrl, 'status'),
    method: 'GET',
    fingerprint: t.fingerprint,
  });
  if (!reply.ok) throw unavailable(reply.why);
  if (reply.status >= 400) throw unavailable(`the service answered ${reply.status}`);
}

/** The highest version both speak; a service without `/api-version` speaks v0. */
async function negotiate(config: Config, t: Target): Promise<Version> {
  const reply = await call(config, t, 'GET', 'api-version');
  if (!reply.ok) throw unavailable(reply.why);
  let theirs: number[] = [0];
  if (reply.status >= 200 && reply.status < 300) {
    try {
      const parsed = z.object({ supported: z.array(z.int()) }).safeParse(JSON.parse(reply.body));
      if (parsed.success) theirs = parsed.data.supported;
    } catch {
      // not JSON: a service from before versions, v0
    }
  }
  const common = SUPPORTED.filter((v) => theirs.includes(v));
  if (common.length === 0) throw new ApiError(legalholdErrors.noCommonVersion);
  return common.at(-1)!;
}

/** Whom a call is about, as each version names them. */
function subject(v: Version, user: { id: string; domain: string }, team: string) {
  return v === 0 ? { user_id: user.id, team_id: team } : { qualified_user_id: user, team_id: team };
}

const path = (v: Version, endpoint: string) => (v === 0 ? endpoint : `v1/${endpoint}`);

/** Asks the service for a device for the user: its prekeys, the last one (id 65535) apart. */
export async function initiate(
  config: Config,
  t: Target,
  user: { id: string; domain: string },
  team: string,
): Promise<{ prekeys: Prekey[]; lastPrekey: Prekey }> {
  const v = await negotiate(config, t);
  const body = succeeded(await call(config, t, 'POST', path(v, 'initiate'), subject(v, user, team)));
  let parsed: z.ZodSafeParseResult<z.infer<typeof initiated>>;
  try {
    parsed = initiated.safeParse(JSON.parse(body));
  } catch {
    throw new ApiError(legalholdErrors.statusBad);
  }
  if (!parsed.success) throw new ApiError(legalholdErrors.statusBad);
  return { prekeys: parsed.data.prekeys, lastPrekey: parsed.data.last_prekey };
}

/** Tells the service its device is approved: its client id and the cookie it logs in with. */
export async function confirm(
  config: Config,
  t: Target,
  o: { user: { id: string; domain: string }; team: string; client: string; refreshToken: string },
): Promise<void> {
  const v = await negotiate(config, t);
  const body = { ...subject(v, o.user, o.team), client_id: o.client, refresh_token: o.refreshToken };
  succeeded(await call(config, t, 'POST', path(v, 'confirm'), body));
}

/** Tells the service the user's device is gone. */
export async function remove(
  config: Config,
  t: Target,
  user: { id: string; domain: string },
  team: string,
): Promise<void> {
  const v = await negotiate(config, t);
  succeeded(await call(config, t, 'POST', path(v, 'remove'), subject(v, user, team)));
}
