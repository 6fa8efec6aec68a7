import { describe, expect, it } from 'vitest';
import { withHeaders, zHostOf } from '../../../../src/edge/nginz/forward.js';

describe('Z-Host', () => {
  it('is the Host header without port, lower-cased', () => {
    const req = new Request('http://127.0.0.1:8080/x', { headers: { host: 'Red.Example.com:8443' } });
    expect(zHostOf(req)).toBe('red.example.com');
  });
});

describe('edge response headers', () => {
  it('are set in place on a response of our own', () => {
    const res = new Response('x');
    expect(withHeaders(res, 'r1', { vary: 'Origin' })).toBe(res);
    expect(res.headers.get('request-id')).toBe('r1');
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('carry a Date, as nginx adds to every response, unless the response has one', () => {
    const dated = withHeaders(new Response('x'), 'r3');
    expect(Math.abs(Date.parse(dated.headers.get('date')!) - Date.now())).toBeLessThan(5_000);
    const own = new Response('x', { headers: { date: 'Thu, 01 Jan 2026 00:00:00 GMT' } });
    expect(withHeaders(own, 'r4').headers.get('date')).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
  });

  it('go on a copy when the headers are immutable', async () => {
    const res = Response.redirect('http://example.com/', 302); // immutable headers, by the Fetch standard
    const out = withHeaders(res, 'r2');
    expect(out.headers.get('request-id')).toBe('r2');
    expect(out.headers.get('location')).toBe('http://example.com/');
    expect(out.status).toBe(302);
  });
});
