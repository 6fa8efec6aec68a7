/** IPv4/IPv6 addresses as numbers, for CIDR membership and prefix keys. */
export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

function parseV4(s: string): bigint | undefined {
  const parts = s.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
}

function parseV6(s: string): bigint | undefined {
  let text = s;
  if (text.includes('.')) {
    // An embedded IPv4 tail (`::ffff:1.2.3.4`) becomes two hex groups.
    const at = text.lastIndexOf(':');
    const v4 = parseV4(text.slice(at + 1));
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, at + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  const total = head.length + rest.length;
  if (halves.length === 1 ? total !== 8 : total > 7) return undefined;
  const all = [...head, ...Array<string>(8 - total).fill('0'), ...rest];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(`0x${g}`), 0n);
}

export function parseIp(text: string): IpAddress | undefined {
  const v4 = parseV4(text);
  if (v4 !== undefined) return { family: 4, value: v4 };
  const v6 = text.includes(':') ? parseV6(text) : undefined;
  return v6 === undefined ? undefined : { family: 6, value: v6 };
}

const bitsOf = (family: 4 | 6) => (family === 4 ? 32 : 128);

/** The address with all but its first `prefix` bits cleared. */
export function maskIp(ip: IpAddress, prefix: number): IpAddress {
  const bits = bitsOf(ip.family);
  const host = BigInt(bits - Math.min(prefix, bits));
  return { family: ip.family, value: (ip.value >> host) << host };
}

/** Whether the address lies in the CIDR block `a.b.c.d/n` or `x::y/n`. */
export function inCidr(ip: IpAddress, block: string): boolean {
  const [addr, bits] = block.split('/');
  const net = parseIp(addr ?? '');
  if (net === undefined || net.family !== ip.family) return false;
  const prefix = Number(bits ?? bitsOf(net.family));
  return maskIp(ip, prefix).value === maskIp(net, prefix).value;
}

export function formatIpKey(ip: IpAddress): string {
  return `${ip.family}:${ip.value.toString(16)}`;
}
