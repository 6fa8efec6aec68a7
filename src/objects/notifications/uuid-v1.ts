/** 100-ns intervals between the Gregorian epoch (1582-10-15) and the Unix epoch. */
const GREGORIAN_OFFSET = 122192928000000000n;

const hex = (n: bigint, width: number) => n.toString(16).padStart(width, '0');

/**
 * Time-based (version 1) UUIDs, strictly increasing in time within one generator: the ids of a
 * notification stream. The node id is random (multicast bit set, as RFC 4122 asks).
 */
export class UuidV1Generator {
  private last = 0n;
  private readonly clockSeq: bigint;
  private readonly node: string;

  constructor() {
    const r = crypto.getRandomValues(new Uint8Array(8));
    this.clockSeq = BigInt(((r[0]! << 8) | r[1]!) & 0x3fff);
    r[2]! |= 0x01;
    this.node = Array.from(r.slice(2), (b) => b.toString(16).padStart(2, '0')).join('');
  }

  next(nowMs = Date.now()): string {
    let t = BigInt(nowMs) * 10000n + GREGORIAN_OFFSET;
    if (t <= this.last) t = this.last + 1n;
    this.last = t;
    const low = t & 0xffffffffn;
    const mid = (t >> 32n) & 0xffffn;
    const high = ((t >> 48n) & 0x0fffn) | 0x1000n;
    const seq = this.clockSeq | 0x8000n;
    return `${hex(low, 8)}-${hex(mid, 4)}-${hex(high, 4)}-${hex(seq, 4)}-${this.node}`;
  }
}

/** Whether the text is a version-1 UUID (what notification ids must be). */
export function isUuidV1(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(text);
}

/** The Unix time (ms) a v1 UUID was made at. */
export function uuidV1Time(id: string): number {
  const [low, mid, high] = id.split('-');
  const t = (BigInt(`0x${high!.slice(1)}`) << 48n) | (BigInt(`0x${mid}`) << 32n) | BigInt(`0x${low}`);
  return Number((t - GREGORIAN_OFFSET) / 10000n);
}
