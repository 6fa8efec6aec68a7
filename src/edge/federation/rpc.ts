// Declares the federation RPCs this backend answers: `POST /federation/{component}/{rpc}` on the
// internal ingress, called by the federator sidecar for a remote it has authenticated.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { normalizeDomain } from '../../shared/domain.js';
import type { AppEnv } from '../api/app-env.js';
import { endpoint, type Endpoint } from '../api/endpoint.js';
import { ApiError, type ErrorSpec } from '../api/errors/api-error.js';
import { commonErrors } from '../api/errors/common.js';
import { json, jsonBody } from '../api/schemas/common.js';
import { readingNullAsAbsent } from '../api/null-as-absent.js';
import { describeIssues } from '../api/describe-issues.js';
import type { FederatedComponent } from '../../shared/federation/components.js';

/** What notifications (and some RPCs) answer: an empty object. */
export const emptyResponse = z.object({}).openapi('EmptyResponse');

/** An answer in wire's tagged-sum encoding (`{"tag", "contents"}`), read by its tag. */
export const taggedAnswer = (name: string) =>
  z.object({ tag: z.string(), contents: z.unknown().optional() }).loose().openapi(name);

/** Who is calling: the remote backend (`Wire-Origin-Domain`, checked by the federator) and the agreed version. */
export interface RpcCaller {
  origin: string;
  /** The `X-Svc-API-Version` the caller sent (v0 when it sent none). */
  version: number;
}

/** The calling backend, as the federator named it; 400 without a valid origin domain or version. */
export function callerOf(c: Context<AppEnv>): RpcCaller {
  const origin = normalizeDomain(c.req.header('wire-origin-domain') ?? '');
  if (origin === undefined) throw new ApiError(commonErrors.badRequest, 'Wire-Origin-Domain is missing or invalid');
  const version = /^v(\d+)$/.exec(c.req.header('x-svc-api-version') ?? 'v0')?.[1];
  if (version === undefined) throw new ApiError(commonErrors.badRequest, 'X-Svc-API-Version is invalid');
  return { origin, version: Number(version) };
}

/**
 * A federation RPC as a notification batch calls it: its body checked as the route checks it, then
 * its handler. `many`, when the RPC has it, takes a run of consecutive calls at once (one read of
 * what they share, one write of what they cause), with the effect of taking them one by one.
 */
export interface FederationCall {
  component: FederatedComponent;
  rpc: string;
  parse(body: unknown): { ok: true; body: unknown } | { ok: false; error: string };
  one(c: Context<AppEnv>, body: unknown, caller: RpcCaller): Promise<unknown>;
  many?: ((c: Context<AppEnv>, bodies: unknown[], caller: RpcCaller) => Promise<void>) | undefined;
}

export type FederationEndpoint = Endpoint & { readonly federation: FederationCall };

export const isFederationEndpoint = (e: Endpoint): e is FederationEndpoint => 'federation' in e;

export function federationRpc<B extends z.ZodType, R extends z.ZodType>(
  spec: {
    component: FederatedComponent;
    rpc: string;
    request: B;
    response: R;
    description: string;
    errors?: readonly ErrorSpec[];
  },
  handler: (c: Context<AppEnv>, body: z.output<B>, caller: RpcCaller) => Promise<z.input<R>>,
  many?: (c: Context<AppEnv>, bodies: Array<z.output<B>>, caller: RpcCaller) => Promise<void>,
): FederationEndpoint {
  const checked = readingNullAsAbsent(spec.request);
  const federation: FederationCall = {
    component: spec.component,
    rpc: spec.rpc,
    parse: (body) => {
      const r = checked.safeParse(body);
      return r.success ? { ok: true, body: r.data } : { ok: false, error: describeIssues(r.error) };
    },
    one: (c, body, caller) => handler(c, body as z.output<B>, caller),
    many: many as FederationCall['many'],
  };
  const route = endpoint(
    {
      name: `federation-${spec.component}-${spec.rpc}`,
      auth: 'none',
      method: 'post',
      path: `/federation/${spec.component}/${spec.rpc}`,
      request: jsonBody(spec.request),
      errors: [commonErrors.badRequest, ...(spec.errors ?? [])],
      responses: { 200: { description: spec.description, ...json(spec.response) } },
    },
    // The body was validated against spec.request: its type is that schema's output.
    (async (c: Context<AppEnv>) => {
      const body = (c.req as unknown as { valid(t: 'json'): z.output<B> }).valid('json');
      return c.json((await handler(c, body, callerOf(c))) as never, 200);
    }) as never,
  );
  return { ...route, federation };
}
