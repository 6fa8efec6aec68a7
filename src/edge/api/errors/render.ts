import type { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../app-env.js';
import { ApiError, type ErrorSpec } from './api-error.js';
import { commonErrors } from './common.js';
import { log } from '../../../shared/log.js';

export function errorResponse(err: ApiError, extraHeaders: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(err.body()), {
    status: err.spec.status,
    headers: { 'content-type': 'application/json', ...err.headers, ...extraHeaders },
  });
}

/** Framework exceptions (malformed JSON, body limits) keep their status and message. */
function fromHttpException(e: HTTPException): ApiError {
  const byStatus: Record<number, ErrorSpec> = {
    400: commonErrors.badRequest,
    413: commonErrors.payloadTooLarge,
  };
  const spec = byStatus[e.status] ?? { status: e.status, label: 'client-error', message: e.message };
  return new ApiError(spec, e.message || spec.message);
}

/** Logs one structured line; exception text goes to the log, never to a response body. */
export function logUnexpected(err: unknown): void {
  const describe = (e: unknown): string =>
    e instanceof Error
      ? `${e.stack ?? `${e.name}: ${e.message}`}${e.cause === undefined ? '' : `\ncaused by: ${describe(e.cause)}`}`
      : String(e);
  log('error', 'unexpected exception', { error: describe(err) });
}

function handleError(err: unknown): Response {
  if (err instanceof ApiError) return errorResponse(err);
  if (err instanceof HTTPException) return errorResponse(fromHttpException(err));
  logUnexpected(err);
  return errorResponse(new ApiError(commonErrors.internalServerError));
}

/** A path matcher per method, so that a known path with another method answers 405, not 404. */
export type MethodIndex = ReadonlyArray<{ method: string; pattern: RegExp }>;

export function installErrorHandling(app: Hono<AppEnv>, methods: MethodIndex): void {
  app.onError(handleError);
  app.notFound((c) => {
    const path = c.req.path;
    const other = methods.some((m) => m.pattern.test(path) && m.method !== c.req.method);
    return errorResponse(new ApiError(other ? commonErrors.methodNotAllowed : commonErrors.noEndpoint));
  });
}
