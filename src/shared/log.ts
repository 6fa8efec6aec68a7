import { AsyncLocalStorage } from 'node:async_hooks';

/** The request (or queued job) the running code serves: every log line names it. */
const current = new AsyncLocalStorage<string>();

/** Runs `work` as part of a request: what it logs, however deep, carries the request id. */
export const withRequestId = <T>(requestId: string, work: () => T): T => current.run(requestId, work);

type Level = 'info' | 'warn' | 'error';
const sink: Record<Level, (line: string) => void> = {
  info: (l) => console.log(l),
  warn: (l) => console.warn(l),
  error: (l) => console.error(l),
};

/** One structured JSON line: level, message, the current request's id, then the fields. */
export function log(level: Level, msg: string, fields: Record<string, unknown> = {}): void {
  const requestId = current.getStore();
  sink[level](JSON.stringify({ level, msg, ...(requestId === undefined ? {} : { request_id: requestId }), ...fields }));
}
