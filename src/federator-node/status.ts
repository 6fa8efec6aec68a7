import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { MetricsRegistry } from '../shared/metrics/registry.js';

/**
 * `GET /i/status`, and `GET /i/metrics` when given the metrics (the worker's face only: the face
 * other backends reach does not show them); true when the request was one of them.
 */
export function serveStatus(
  req: IncomingMessage | Http2ServerRequest,
  res: ServerResponse | Http2ServerResponse,
  metrics?: MetricsRegistry,
): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.url === '/i/status') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end();
    return true;
  }
  if (req.url === '/i/metrics' && metrics !== undefined) {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end(metrics.text());
    return true;
  }
  return false;
}

/** Records a request's latency once its response is sent (`http_request_duration_seconds`). */
export function timeRequest(
  req: IncomingMessage | Http2ServerRequest,
  res: ServerResponse | Http2ServerResponse,
  metrics: MetricsRegistry,
  handler: string,
): void {
  const start = performance.now();
  res.once('finish', () =>
    metrics.observe(
      'http_request_duration_seconds',
      { handler, method: req.method ?? 'GET', status_code: String(res.statusCode) },
      (performance.now() - start) / 1000,
    ),
  );
}
