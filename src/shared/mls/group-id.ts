import { uuidFromBytes, uuidToBytes } from '../uuid.js';

/** wire-server's `ConvType` as group ids number it. */
export const ConvType = { regular: 0, self: 1, one2one: 2, connect: 3 } as const;
export type ConvType = (typeof ConvType)[keyof typeof ConvType];

/**
 * What wire-server's MLS group id says (`Wire.API.MLS.Group.Serialisation`): the conversation or
 * subconversation it belongs to and the generation, which a reset increases.
 */
export interface GroupIdParts {
  /** 1 for new groups; 2 after a reset, and for any group id with a domain length prefix. */
  version: 1 | 2;
  convType: ConvType;
  /** The conversation id (a UUID, lowercase when decoded). */
  conv: string;
  /** The subconversation id, absent for the main conversation. */
  subconv?: string;
  /** Absent only in version 1 ids of a main conversation, which carry none (it is 0). */
  generation?: number;
  domain: string;
}

const HEADER_LENGTH = 2 + 2 + 16 + 1;
const MAX_U32 = 0xffff_ffff;
/** Strict UTF-8 that keeps a leading BOM, as wire-server's `decodeUtf8'` does. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Whether the text is a subconversation id: 1–255 printable ASCII characters, no spaces. */
export function isValidSubconvId(text: string): boolean {
  return /^[\x21-\x7e]{1,255}$/.test(text);
}

/**
 * The group id of the parts: `u16 version ‖ u16 conv type ‖ 16-byte conv uuid ‖ u8 length +
 * subconv id ‖ u32 generation (version 2, or a subconversation) ‖ u16 domain length (version 2) ‖
 * domain`. Throws on parts no group id can carry.
 */
export function encodeGroupId(parts: GroupIdParts): Uint8Array {
  const conv = uuidToBytes(parts.conv);
  if (conv === undefined) throw new Error(`not a conversation id: ${parts.conv}`);
  const subconv = new TextEncoder().encode(parts.subconv ?? '');
  if (parts.subconv !== undefined && !isValidSubconvId(parts.subconv)) {
    throw new Error(`not a subconversation id: ${parts.subconv}`);
  }
  const generation = parts.generation ?? 0;
  if (!Number.isInteger(generation) || generation < 0 || generation > MAX_U32) {
    throw new Error(`not a generation: ${generation}`);
  }
  const withGeneration = parts.version === 2 || parts.subconv !== undefined;
  if (!withGeneration && generation !== 0) throw new Error('a version 1 main conversation group id has no generation');
  const domain = new TextEncoder().encode(parts.domain);
  if (domain.length > 0xffff) throw new Error('domain too long for a group id');

  const out = new Uint8Array(
    HEADER_LENGTH + subconv.length + (withGeneration ? 4 : 0) + (parts.version === 2 ? 2 : 0) + domain.length,
  );
  const view = new DataView(out.buffer);
  view.setUint16(0, parts.version);
  view.setUint16(2, parts.convType);
  out.set(conv, 4);
  out[20] = subconv.length;
  out.set(subconv, HEADER_LENGTH);
  let offset = HEADER_LENGTH + subconv.length;
  if (withGeneration) {
    view.setUint32(offset, generation);
    offset += 4;
  }
  if (parts.version === 2) {
    view.setUint16(offset, domain.length);
    offset += 2;
  }
  out.set(domain, offset);
  return out;
}

/**
 * The parts of a group id, or `undefined` for bytes that are none (wire-server: 400
 * `mls-protocol-error` "Could not parse group ID"). Version 1 ends with the domain; version 2
 * prefixes it with its length, and what follows it (future extensions) is ignored.
 */
export function decodeGroupId(bytes: Uint8Array): GroupIdParts | undefined {
  if (bytes.length < HEADER_LENGTH) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint16(0);
  const convType = view.getUint16(2);
  if ((version !== 1 && version !== 2) || convType > ConvType.connect) return undefined;
  const conv = uuidFromBytes(bytes.subarray(4, 20));
  const subconvLength = bytes[20]!;
  // A subconversation id longer than the rest leaves no room for the generation that must follow.
  let offset = HEADER_LENGTH + subconvLength;
  const subconv = subconvLength > 0 ? String.fromCharCode(...bytes.subarray(HEADER_LENGTH, offset)) : undefined;
  if (subconv !== undefined && !isValidSubconvId(subconv)) return undefined;
  const parts: GroupIdParts = { version, convType: convType as ConvType, conv, domain: '' };
  if (subconv !== undefined) parts.subconv = subconv;
  if (version === 2 || subconv !== undefined) {
    if (offset + 4 > bytes.length) return undefined;
    parts.generation = view.getUint32(offset);
    offset += 4;
  }
  let domainEnd = bytes.length;
  if (version === 2) {
    if (offset + 2 > bytes.length) return undefined;
    domainEnd = offset + 2 + view.getUint16(offset);
    offset += 2;
    if (domainEnd > bytes.length) return undefined;
  }
  try {
    parts.domain = utf8.decode(bytes.subarray(offset, domainEnd));
  } catch {
    return undefined;
  }
  return parts;
}

/**
 * The group id a reset gives the group (wire-server's `nextGenGroupId`): the same conversation, the
 * generation plus one, always written as version 2. `undefined` when the id does not decode or its
 * generation is at its maximum.
 */
export function nextGeneration(groupId: Uint8Array): Uint8Array | undefined {
  const parts = decodeGroupId(groupId);
  if (parts === undefined || parts.generation === MAX_U32) return undefined;
  return encodeGroupId({ ...parts, version: 2, generation: (parts.generation ?? 0) + 1 });
}

/** The group id of a subconversation before any reset (wire-server: version 1, regular type, generation 0). */
export function subconversationGroupId(conv: { id: string; domain: string }, subconv: string): Uint8Array {
  return encodeGroupId({
    version: 1,
    convType: ConvType.regular,
    conv: conv.id,
    subconv,
    generation: 0,
    domain: conv.domain,
  });
}
