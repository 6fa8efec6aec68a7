import { z } from 'zod';
import { parseDisabledVersion, type DisabledVersion } from '../../api-version.js';

/** `disabledAPIVersions`: `[development]` by default in the shipped files, `[]` enables all. */
export const disabledApiVersions = z.array(z.string()).transform((words, ctx): DisabledVersion[] => {
  const out: DisabledVersion[] = [];
  words.forEach((w, i) => {
    const v = parseDisabledVersion(w);
    if (v === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [i],
        message: `"${w}" is neither a known API version (v0..v9) nor "development"`,
      });
    } else out.push(v);
  });
  return out;
});

const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A DNS-shaped domain: the official clients refuse `localhost` and IP addresses. */
export const federationDomain = z.string().refine(
  (d) => {
    const labels = d.split('.');
    return (
      d.length <= 253 &&
      labels.length >= 2 &&
      labels.every((l) => DNS_LABEL.test(l)) &&
      !/^\d+$/.test(labels[labels.length - 1]!)
    );
  },
  { message: 'must be a DNS domain with at least two labels (not localhost, not an IP address)' },
);

export const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });

export const positiveInt = z.int().positive();
export const nonNegativeInt = z.int().nonnegative();

/** A token bucket as wire-server writes it: `inverseRate` is microseconds per token. */
const tokenBucket = z.strictObject({
  burst: positiveInt,
  inverseRate: nonNegativeInt,
});

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(addr: string): boolean {
  if (!addr.includes(':')) return false;
  try {
    new URL(`http://[${addr}]/`);
    return true;
  } catch {
    return false;
  }
}

/** A CIDR block; a single address must be written with its full prefix (`/32`, `/128`). */
const cidrBlock = z.string().superRefine((s, ctx) => {
  const [addr, bits, extra] = s.split('/');
  if (bits === undefined || extra !== undefined || !/^\d{1,3}$/.test(bits)) {
    ctx.addIssue({
      code: 'custom',
      message: `"${s}" is not a CIDR block (write a single address as ${addr}/32 or /128)`,
    });
    return;
  }
  const max = IPV4.test(addr!) ? 32 : isIpv6(addr!) ? 128 : 0;
  if (max === 0) ctx.addIssue({ code: 'custom', message: `"${addr}" is not an IPv4 or IPv6 address` });
  else if (Number(bits) > max) ctx.addIssue({ code: 'custom', message: `prefix /${bits} is longer than ${max} bits` });
});

export const passwordHashingOptions = z.strictObject({
  algorithm: z.enum(['scrypt', 'argon2id']),
  iterations: positiveInt.optional(),
  memory: positiveInt.optional(),
  parallelism: positiveInt.optional(),
});

export const passwordHashingRateLimit = z.strictObject({
  ipAddrLimit: tokenBucket,
  userLimit: tokenBucket,
  internalLimit: tokenBucket,
  ipv4CidrBlock: z.int().min(1).max(32).default(32),
  ipv6CidrBlock: z.int().min(1).max(128).default(64),
  ipAddressExceptions: z.array(cidrBlock).default([]),
  /** wire-server's in-memory LRU bound; accepted for compatibility (here every key is its own object). */
  maxRateLimitedKeys: positiveInt.optional(),
});

export const protocol = z.enum(['proteus', 'mls']);
