import { describe, expect, it } from 'vitest';
import {
  ConvType,
  decodeGroupId,
  encodeGroupId,
  type GroupIdParts,
  isValidSubconvId,
  nextGeneration,
} from '../../../../src/shared/mls/group-id.js';

const CONV = 'a3a9b6e2-1c3f-4b6a-9d2e-0f1e2d3c4b5a';
const UUID_HEX = CONV.replace(/-/g, '');
const DOMAIN_HEX = Buffer.from('example.com').toString('hex');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytes = (text: string) => new Uint8Array(Buffer.from(text.replace(/ /g, ''), 'hex'));

/** The examples of wire-server's encoding (research note §3.1). */
const MAIN_V1 = `0001 0000 ${UUID_HEX} 00 ${DOMAIN_HEX}`;
const SUBCONV_V1 = `0001 0000 ${UUID_HEX} 0a ${Buffer.from('conference').toString('hex')} 00000000 ${DOMAIN_HEX}`;
const RESET_V2 = `0002 0000 ${UUID_HEX} 00 00000001 000b ${DOMAIN_HEX}`;

const main: GroupIdParts = { version: 1, convType: ConvType.regular, conv: CONV, domain: 'example.com' };

describe('group ids: wire-server examples', () => {
  it('a new main conversation: version 1, no generation, the domain unprefixed', () => {
    expect(hex(encodeGroupId(main))).toBe(MAIN_V1.replace(/ /g, ''));
    expect(decodeGroupId(bytes(MAIN_V1))).toEqual(main);
  });

  it('a subconversation: version 1 with a generation', () => {
    const parts: GroupIdParts = { ...main, subconv: 'conference', generation: 0 };
    expect(hex(encodeGroupId(parts))).toBe(SUBCONV_V1.replace(/ /g, ''));
    expect(decodeGroupId(bytes(SUBCONV_V1))).toEqual(parts);
  });

  it('a reset main conversation: version 2, generation 1, the domain length-prefixed', () => {
    expect(hex(nextGeneration(bytes(MAIN_V1))!)).toBe(RESET_V2.replace(/ /g, ''));
    expect(decodeGroupId(bytes(RESET_V2))).toEqual({ ...main, version: 2, generation: 1 });
  });
});

describe('group ids', () => {
  it('round-trip every conversation type, subconversations, generations and both versions', () => {
    for (const convType of Object.values(ConvType))
      for (const version of [1, 2] as const)
        for (const subconv of [undefined, 'a', '~'.repeat(255)]) {
          const parts: GroupIdParts = { version, convType, conv: CONV, domain: 'b.example.com' };
          if (subconv !== undefined) parts.subconv = subconv;
          if (version === 2 || subconv !== undefined) parts.generation = 0xffff_fffe;
          expect(decodeGroupId(encodeGroupId(parts))).toEqual(parts);
        }
  });

  it('decode conversation ids lowercase', () => {
    expect(decodeGroupId(encodeGroupId({ ...main, conv: CONV.toUpperCase() }))?.conv).toBe(CONV);
  });

  it('ignore what follows the domain in version 2 (extensions), not in version 1 (part of the domain)', () => {
    expect(decodeGroupId(bytes(`${RESET_V2} ff00`))?.domain).toBe('example.com');
    expect(decodeGroupId(bytes(`${MAIN_V1} 2e6f7267`))?.domain).toBe('example.com.org');
  });

  it('keep a BOM in the domain, as wire-server does', () => {
    expect(decodeGroupId(bytes(`0001 0000 ${UUID_HEX} 00 efbbbf ${DOMAIN_HEX}`))?.domain).toBe('\ufeffexample.com');
  });

  it.each([
    ['empty', ''],
    ['cut inside the header', MAIN_V1.slice(0, 20)],
    ['version 0', `0000${MAIN_V1.slice(4)}`],
    ['version 3', `0003${MAIN_V1.slice(4)}`],
    ['conversation type 4', `0001 0004 ${UUID_HEX} 00 ${DOMAIN_HEX}`],
    ['a subconversation longer than the rest', `0001 0000 ${UUID_HEX} 20 6162`],
    ['a subconversation with a space', `0001 0000 ${UUID_HEX} 02 6120 00000000 ${DOMAIN_HEX}`],
    ['a subconversation with a non-ASCII byte', `0001 0000 ${UUID_HEX} 01 e9 00000000 ${DOMAIN_HEX}`],
    ['a subconversation without its generation', `0001 0000 ${UUID_HEX} 01 61 0000`],
    ['version 2 without a generation', `0002 0000 ${UUID_HEX} 00 0000`],
    ['version 2 without a domain length', `0002 0000 ${UUID_HEX} 00 00000001 00`],
    ['version 2 with a domain shorter than its length', `0002 0000 ${UUID_HEX} 00 00000001 000c ${DOMAIN_HEX}`],
    ['a domain that is not UTF-8', `0001 0000 ${UUID_HEX} 00 ff`],
  ])('do not decode when %s', (_, text) => {
    expect(decodeGroupId(bytes(text))).toBeUndefined();
  });

  it('refuse to encode what no group id carries', () => {
    expect(() => encodeGroupId({ ...main, conv: 'not-a-uuid' })).toThrow();
    expect(() => encodeGroupId({ ...main, subconv: 'a b' })).toThrow();
    expect(() => encodeGroupId({ ...main, subconv: '' })).toThrow();
    expect(() => encodeGroupId({ ...main, generation: 1 })).toThrow();
    expect(() => encodeGroupId({ ...main, version: 2, generation: 2 ** 32 })).toThrow();
    expect(() => encodeGroupId({ ...main, version: 2, generation: -1 })).toThrow();
    expect(() => encodeGroupId({ ...main, version: 2, domain: 'a'.repeat(0x10000) })).toThrow();
  });
});

describe('nextGeneration', () => {
  it('counts up from the generation of a subconversation and keeps it', () => {
    const sub = encodeGroupId({ ...main, subconv: 'conference', generation: 0 });
    const once = nextGeneration(sub)!;
    expect(decodeGroupId(once)).toEqual({ ...main, version: 2, subconv: 'conference', generation: 1 });
    expect(decodeGroupId(nextGeneration(once)!)).toMatchObject({ version: 2, generation: 2 });
  });

  it('gives nothing for bytes that are no group id, or a generation at its maximum', () => {
    expect(nextGeneration(new Uint8Array(3))).toBeUndefined();
    expect(nextGeneration(encodeGroupId({ ...main, version: 2, generation: 0xffff_ffff }))).toBeUndefined();
  });
});

describe('isValidSubconvId', () => {
  it('takes 1–255 printable ASCII characters without spaces', () => {
    expect(isValidSubconvId('conference')).toBe(true);
    expect(isValidSubconvId('!~'.repeat(127))).toBe(true);
    for (const bad of ['', 'a'.repeat(256), 'a b', 'a\tb', 'é', 'a\u007f']) expect(isValidSubconvId(bad)).toBe(false);
  });
});
