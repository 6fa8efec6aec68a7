import { describe, expect, it } from 'vitest';
import { formatIpKey, inCidr, maskIp, parseIp } from '../../../src/shared/ip.js';

describe('ip addresses', () => {
  it('parses IPv4 and IPv6, refusing garbage', () => {
    expect(parseIp('10.1.2.3')).toEqual({ family: 4, value: 0x0a010203n });
    expect(parseIp('::1')).toEqual({ family: 6, value: 1n });
    expect(parseIp('2001:db8::ff00:42:8329')?.value).toBe(0x20010db8000000000000ff0000428329n);
    expect(parseIp('::ffff:1.2.3.4')?.value).toBe(0xffff01020304n);
    for (const bad of ['256.1.1.1', '1.2.3', 'a::b::c', '12345::', 'localhost', ''])
      expect(parseIp(bad), bad).toBeUndefined();
  });

  it('matches CIDR blocks, a single address as /32', () => {
    const ip = parseIp('192.168.7.9')!;
    expect(inCidr(ip, '192.168.0.0/16')).toBe(true);
    expect(inCidr(ip, '192.168.7.9/32')).toBe(true);
    expect(inCidr(ip, '192.168.7.8/32')).toBe(false);
    expect(inCidr(ip, '::/0')).toBe(false);
    expect(inCidr(parseIp('2001:db8::1')!, '2001:db8::/32')).toBe(true);
  });

  it('keys addresses by their prefix', () => {
    const a = maskIp(parseIp('2001:db8:1:2:aaaa::1')!, 64);
    const b = maskIp(parseIp('2001:db8:1:2:bbbb::2')!, 64);
    expect(formatIpKey(a)).toBe(formatIpKey(b));
    expect(formatIpKey(maskIp(parseIp('10.0.0.1')!, 32))).not.toBe(formatIpKey(maskIp(parseIp('10.0.0.2')!, 32)));
  });
});
