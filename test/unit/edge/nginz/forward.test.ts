import { describe, expect, it } from 'vitest';
import { forwardRequest, zHostOf } from '../../../../src/edge/nginz/forward.js';

describe('Z-Host', () => {
  it('is the Host header without port, lower-cased', () => {
    const req = new Request('http://127.0.0.1:8080/x', { headers: { host: 'Red.Example.com:8443' } });
    expect(zHostOf(req)).toBe('red.example.com');
  });

  it('replaces what a client sent and strips the version prefix', () => {
    const req = new Request('http://red.example.com/v5/api-version?x=1', {
      headers: { 'z-host': 'spoofed.example.com', 'z-user': 'someone' },
    });
    const out = forwardRequest(req, '/api-version', { 'z-host': zHostOf(req) });
    expect(new URL(out.url).pathname + new URL(out.url).search).toBe('/api-version?x=1');
    expect(out.headers.get('z-host')).toBe('red.example.com');
    expect(out.headers.get('z-user')).toBeNull();
  });
});
