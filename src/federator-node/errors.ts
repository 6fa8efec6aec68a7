import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';

/** A federator error in Wire's format: the status and label remotes and the edge expect. */
export interface FederatorError {
  status: number;
  label: string;
  message: string;
  /** Wire's `FederationErrorData` and, for a remote's refusal, the remote's own error (`inner`). */
  more?: { data?: { type: 'federation'; domain: string; path: string }; inner?: unknown };
}

export const federatorError = (
  status: number,
  label: string,
  message: string,
  more?: FederatorError['more'],
): FederatorError => ({ status, label, message, ...(more === undefined ? {} : { more }) });

export function sendError(res: ServerResponse | Http2ServerResponse, e: FederatorError): void {
  const body = JSON.stringify({ code: e.status, label: e.label, message: e.message, ...e.more });
  res.writeHead(e.status, { 'content-type': 'application/json' });
  res.end(body);
}
