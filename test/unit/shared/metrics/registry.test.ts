import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../../../../src/shared/metrics/registry.js';

describe('MetricsRegistry', () => {
  it("renders counters and cumulative histogram buckets in Prometheus' text format", () => {
    const r = new MetricsRegistry();
    r.count('push_native_success');
    r.count('push_native_success', {}, 2);
    const labels = { handler: '/self', method: 'GET', status_code: '200' };
    r.observe('http_request_duration_seconds', labels, 0.003);
    r.observe('http_request_duration_seconds', labels, 0.2);
    r.observe('http_request_duration_seconds', labels, 42);
    const text = r.text();
    expect(text).toContain('# TYPE push_native_success counter\npush_native_success{} 3\n');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    const series = '{handler="/self",method="GET",status_code="200"';
    expect(text).toContain(`http_request_duration_seconds_bucket${series},le="0.005"} 1`);
    expect(text).toContain(`http_request_duration_seconds_bucket${series},le="0.1"} 1`);
    expect(text).toContain(`http_request_duration_seconds_bucket${series},le="0.25"} 2`);
    expect(text).toContain(`http_request_duration_seconds_bucket${series},le="10"} 2`);
    expect(text).toContain(`http_request_duration_seconds_bucket${series},le="+Inf"} 3`);
    expect(text).toContain(`http_request_duration_seconds_count${series}} 3`);
    expect(text).toContain(`http_request_duration_seconds_sum${series}} 42.203`);
  });

  it('escapes label values, and merges what other registries took', () => {
    const a = new MetricsRegistry();
    a.count('svc_federator_inward_requests_total', { component: 'say "hi"\\\n' });
    const b = new MetricsRegistry();
    b.merge(a.take());
    expect(a.empty).toBe(true);
    const changed = b.merge(b.take());
    expect(changed.counters).toEqual([['svc_federator_inward_requests_total{component="say \\"hi\\"\\\\\\n"}', 1]]);
    expect(b.text()).toContain('svc_federator_inward_requests_total{component="say \\"hi\\"\\\\\\n"} 1');
  });
});
