/** Every metric the backend exports, with its Prometheus type and help text. */
export const METRICS = {
  http_request_duration_seconds: {
    type: 'histogram',
    help: 'The HTTP request latencies in seconds.',
  },
  svc_d1_queries_total: {
    type: 'counter',
    help: 'D1 statements the edge ran to answer requests, by route (a batch counts each of its statements).',
  },
  svc_d1_replica_queries_total: {
    type: 'counter',
    help: 'Of svc_d1_queries_total, the statements run in read sessions a D1 replica may serve, by route.',
  },
  svc_object_calls_total: {
    type: 'counter',
    help: 'Calls the edge made to Durable Objects to answer requests, by route and object class.',
  },
  svc_notifications_appended_total: {
    type: 'counter',
    help: 'Notifications appended to users’ streams (transient ones only pushed to sockets).',
  },
  svc_websocket_deliveries_total: {
    type: 'counter',
    help: 'Notifications sent to live websockets, by protocol.',
  },
  svc_native_pushes_queued_total: {
    type: 'counter',
    help: 'Notifications handed to the native push queues for devices no websocket reached, by queue.',
  },
  push_native_success: { type: 'counter', help: 'Native pushes the push gateway accepted.' },
  push_native_disabled: { type: 'counter', help: 'Native pushes to devices the platform disabled (token dropped).' },
  push_native_errors: { type: 'counter', help: 'Native pushes that failed and were retried.' },
  svc_federator_outward_requests_total: {
    type: 'counter',
    help: 'Requests the federator sent to other backends, by target domain, component, rpc and status.',
  },
  svc_federator_inward_requests_total: {
    type: 'counter',
    help: 'Requests the federator took from other backends, by component, rpc and status.',
  },
} as const;

export type MetricName = keyof typeof METRICS;

/** Prometheus' default latency buckets (seconds), as wire's services use them. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
