// SCIM's own error format (RFC 7644 §3.12), which SCIM clients parse instead of wire's.
import { ApiError } from '../../api/errors/api-error.js';
import { logUnexpected } from '../../api/errors/render.js';

const SCIM_JSON = 'application/scim+json;charset=utf-8';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue';

class ScimError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 500,
    readonly scimType: ScimType | undefined,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ScimError';
  }
}

export const scimErrors = {
  badRequest: (scimType: ScimType, detail: string) => new ScimError(400, scimType, detail),
  unauthorized: (why: string) => new ScimError(401, undefined, `authorization failed: ${why}`),
  notFound: (resource: string, id: string) => new ScimError(404, undefined, `${resource} ${id} not found`),
  conflict: (detail: string) => new ScimError(409, 'uniqueness', detail),
  tooLarge: (detail: string) => new ScimError(413, 'invalidValue', detail),
};

export function scimJson(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': SCIM_JSON } });
}

/**
 * Any failure of a SCIM route as a SCIM error: wire's own errors keep their status with their
 * body as the detail; the unexpected are logged and become a bare 500.
 */
export function scimFailure(err: unknown): Response {
  const body = (status: number, scimType: ScimType | undefined, detail: string) =>
    scimJson({ schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail }, status);
  if (err instanceof ScimError) return body(err.status, err.scimType, err.detail);
  if (err instanceof ApiError) return body(err.spec.status, undefined, JSON.stringify(err.body()));
  logUnexpected(err);
  return body(500, undefined, 'internal error');
}
