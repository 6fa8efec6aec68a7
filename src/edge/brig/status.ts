import { endpoint } from '../api/endpoint.js';

/** `GET /i/status` (internal): liveness of the backend. */
export const getStatus = endpoint(
  {
    name: 'i-status',
    method: 'get',
    path: '/i/status',
    responses: { 200: { description: 'The backend is up' } },
  },
  (c) => c.body(null, 200),
);
