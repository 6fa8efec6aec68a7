import { proteus } from '@wireapp/protocol-messaging/web/otr.js';
import Long from 'long';
import * as protobuf from 'protobufjs/minimal.js';

// The bundled worker cannot `require('long')` dynamically: without this, uint64 client ids would
// decode as lossy numbers.
protobuf.util.Long = Long;
protobuf.configure();

/**
 * Hex forms already made, by the id's high then low half. A radix conversion costs about a
 * microsecond, a message names each recipient's client, and the same clients recur message after
 * message: looked up, a conversation's fan-out spends a tenth of that. Bounded; cleared when full.
 */
const hexOfClient = new Map<number, Map<number, string>>();
let remembered = 0;
const MAX_REMEMBERED = 100_000;

/** Wire's form of a client id (lowercase hex, no leading zeros), from its two 32-bit halves. */
function clientIdHex(v: Long | number): string {
  const l = Long.isLong(v) ? v : Long.fromValue(v);
  const high = l.high >>> 0;
  const low = l.low >>> 0;
  let byLow = hexOfClient.get(high);
  const known = byLow?.get(low);
  if (known !== undefined) return known;
  if (remembered >= MAX_REMEMBERED) {
    hexOfClient.clear();
    remembered = 0;
    byLow = undefined;
  }
  if (byLow === undefined) hexOfClient.set(high, (byLow = new Map()));
  const hex = high === 0 ? low.toString(16) : high.toString(16) + low.toString(16).padStart(8, '0');
  byLow.set(low, hex);
  remembered++;
  return hex;
}
export const clientIdLong = (hex: string) => Long.fromString(hex, true, 16);

export type MismatchStrategy =
  | { kind: 'report_all' }
  | { kind: 'ignore_all' }
  | { kind: 'report_only'; users: Array<{ id: string; domain: string }> }
  | { kind: 'ignore_only'; users: Array<{ id: string; domain: string }> };

/** One ciphertext for one client of one user. */
export interface OtrRecipient {
  domain: string;
  user: string;
  client: string;
  text: Uint8Array;
}

export interface OtrMessage {
  sender: string;
  recipients: OtrRecipient[];
  nativePush: boolean;
  transient: boolean;
  priority: 'low' | 'high' | undefined;
  blob: Uint8Array | undefined;
  strategy: MismatchStrategy | undefined;
}

export class OtrDecodeError extends Error {}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

function uuidFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new OtrDecodeError('Invalid UUID');
  let s = '';
  for (let i = 0; i < 16; i++) s += (i === 4 || i === 6 || i === 8 || i === 10 ? '-' : '') + HEX[bytes[i]!];
  return s;
}

const has = (o: object, k: string) => Object.hasOwn(o, k);

function decodeWith<T>(decode: (b: Uint8Array) => T, bytes: Uint8Array): T {
  try {
    return decode(bytes);
  } catch (err) {
    throw new OtrDecodeError(err instanceof Error ? err.message : 'malformed protobuf');
  }
}

type Common = Pick<proteus.INewOtrMessage, 'nativePush' | 'transient' | 'nativePriority' | 'blob'> & {
  sender: proteus.IClientId;
};

/** The fields both message forms share. */
function commonFields(m: Common): Omit<OtrMessage, 'recipients' | 'strategy'> {
  return {
    sender: clientIdHex(m.sender.client as Long),
    nativePush: m.nativePush ?? true,
    transient: m.transient ?? false,
    priority: has(m, 'nativePriority')
      ? m.nativePriority === proteus.Priority.HIGH_PRIORITY
        ? 'high'
        : 'low'
      : undefined,
    blob: m.blob !== undefined && m.blob !== null && m.blob.length > 0 ? m.blob : undefined,
  };
}

function recipientsOf(domain: string, entries: proteus.IUserEntry[] | null | undefined): OtrRecipient[] {
  return (entries ?? []).flatMap((e) => {
    const user = uuidFromBytes(e.user.uuid);
    return (e.clients ?? []).map((c) => ({ domain, user, client: clientIdHex(c.client.client as Long), text: c.text }));
  });
}

function strategyOf(m: proteus.QualifiedNewOtrMessage): MismatchStrategy | undefined {
  const only = (list: proteus.IQualifiedUserId[] | null | undefined) =>
    (list ?? []).map((u) => ({ id: u.id, domain: u.domain }));
  switch (m.clientMismatchStrategy) {
    case 'reportAll':
      return { kind: 'report_all' };
    case 'ignoreAll':
      return { kind: 'ignore_all' };
    case 'reportOnly':
      return { kind: 'report_only', users: only(m.reportOnly?.userIds) };
    case 'ignoreOnly':
      return { kind: 'ignore_only', users: only(m.ignoreOnly?.userIds) };
    default:
      return undefined;
  }
}

/** Decodes `QualifiedNewOtrMessage` (otr.proto, as published in @wireapp/protocol-messaging). */
export function decodeQualifiedOtr(bytes: Uint8Array): OtrMessage {
  const m = decodeWith((b) => proteus.QualifiedNewOtrMessage.decode(b), bytes);
  return {
    ...commonFields(m),
    recipients: m.recipients.flatMap((r) => recipientsOf(r.domain, r.entries)),
    strategy: strategyOf(m),
  };
}

/** Decodes the legacy unqualified `NewOtrMessage`; users are local. */
export function decodeLegacyOtr(
  bytes: Uint8Array,
  domain: string,
): OtrMessage & { reportMissing: string[] | undefined } {
  const m = decodeWith((b) => proteus.NewOtrMessage.decode(b), bytes);
  const reportMissing = (m.reportMissing ?? []).map((u) => uuidFromBytes(u.uuid));
  return {
    ...commonFields(m),
    recipients: recipientsOf(domain, m.recipients),
    strategy: undefined,
    reportMissing: reportMissing.length > 0 ? reportMissing : undefined,
  };
}
