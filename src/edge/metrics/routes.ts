import { z } from '@hono/zod-openapi';
import { endpoint } from '../api/endpoint.js';
import { scrape } from './counts.js';

/** `GET /i/metrics`: Prometheus' text format, summed over every isolate of the backend. */
const getMetrics = endpoint(
  {
    name: 'get-metrics',
    method: 'get',
    path: '/i/metrics',
    responses: { 200: { description: 'The metrics', content: { 'text/plain': { schema: z.string() } } } },
  },
  async (c) => c.text(await scrape(c.env), 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }),
);

export const metricsInternal = [getMetrics];
