import { toHex } from './hex.js';

/** 100-ns intervals between the Gregorian epoch (1582-10-15) and the Unix epoch. */
const GREGORIAN_OFFSET = 122192928000000000n;

const hex = (n: bigint, width: number) => n.toString(16).padStart(width, '0');

/**
 * Time-based (version 1) UUIDs, strictly increasing in time within one generator: the ids of a
 * notification stream. The node id is random (multicast bit set, as RFC 4122 asks). The time is
 * kept as a millisecond and a 100-ns count within it, so BigInt work happens once per millisecond,
 * not once per id.
 */
export class UuidV1Generator {
  private ms = -1;
  private ticks = 0;
  private readonly tail: string;
  /** The current millisecond's time fields: `mid-high-tail`, and the low 32 bits at tick 0. */
  private upper = '';
  private low0 = 0;

  constructor() {
    const r = crypto.getRandomValues(new Uint8Array(8));
    const clockSeq = BigInt(((r[0]! << 8) | r[1]!) & 0x3fff);
    r[2]! |= 0x01;
    const node = toHex(r.slice(2));
    this.tail = `${hex(clockSeq | 0x8000n, 4)}-${node}`;
  }

  next(nowMs = Date.now()): string {
    if (nowMs > this.ms) this.enter(nowMs);
    else if (++this.ticks === 10000) this.enter(this.ms + 1);
    const low = this.low0 + this.ticks;
    if (low > 0xffffffff) return this.slow(BigInt(this.ms) * 10000n + GREGORIAN_OFFSET + BigInt(this.ticks));
    return `${low.toString(16).padStart(8, '0')}-${this.upper}`;
  }

  private enter(ms: number): void {
    this.ms = ms;
    this.ticks = 0;
    const t = BigInt(ms) * 10000n + GREGORIAN_OFFSET;
    this.upper = `${hex((t >> 32n) & 0xffffn, 4)}-${hex(((t >> 48n) & 0x0fffn) | 0x1000n, 4)}-${this.tail}`;
    this.low0 = Number(t & 0xffffffffn);
  }

  /** The low 32 bits wrap within this millisecond: format the whole time. */
  private slow(t: bigint): string {
    return `${hex(t & 0xffffffffn, 8)}-${hex((t >> 32n) & 0xffffn, 4)}-${hex(((t >> 48n) & 0x0fffn) | 0x1000n, 4)}-${this.tail}`;
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

/**
 * A v1 UUID's 60-bit timestamp as 15 hex digits: sorts as the ids were made. The stream's rows
 * are keyed by it, so `since` lookups and time cut-offs use the primary key.
 */
export function uuidV1Key(id: string): string {
  return id.slice(15, 18) + id.slice(9, 13) + id.slice(0, 8);
}

/** The key of the first id made at or after a Unix time (ms). */
export function timeKey(ms: number): string {
  return hex(BigInt(Math.max(0, ms)) * 10000n + GREGORIAN_OFFSET, 15);
}

/** 2020-01-01 in the 100-ns ticks of v1 UUIDs: `uuidV1Seq` counts from it to stay within 2^53 (until 2048). */
const SEQ_BASE = 1577836800000n * 10000n + GREGORIAN_OFFSET;
const SEQ_BASE_HIGH = Number(SEQ_BASE >> 32n);
const SEQ_BASE_LOW = Number(SEQ_BASE & 0xffffffffn);

/**
 * A v1 UUID's time as an integer (100-ns ticks since 2020), sorting as the ids were made: a
 * stream's row number, so finding an id's row and cutting off by time use the primary key.
 */
export function uuidV1Seq(id: string): number {
  // In two halves, each exact as a double, so no BigInt per id: the time's upper 28 and lower 32 bits.
  const high = Number.parseInt(id.slice(15, 18) + id.slice(9, 13), 16) - SEQ_BASE_HIGH;
  return high * 2 ** 32 + Number.parseInt(id.slice(0, 8), 16) - SEQ_BASE_LOW;
}

/** The `uuidV1Seq` of the first id made at or after a Unix time (ms). */
export function timeSeq(ms: number): number {
  return (ms - 1577836800000) * 10000;
}

/** The Unix time (ms) of a `uuidV1Seq`, rounded down. */
export function seqTime(seq: number): number {
  return Math.floor(seq / 10000) + 1577836800000;
}
