import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';

/** A federator error in Wire's format: the status and label remotes and the edge expect. */
export interface FederatorError {
  status: number;
  label: string;
  message: string;
}

export const federatorError = (status: number, label: string, message: string): FederatorError => ({
  status,
  label,
  message,
});

export function sendError(res: ServerResponse | Http2ServerResponse, e: FederatorError): void {
  const body = JSON.stringify({ code: e.status, label: e.label, message: e.message });
  res.writeHead(e.status, { 'content-type': 'application/json' });
  res.end(body);
}
