import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '../../../src/shared/base64.js';

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff);

describe('base64', () => {
  it('encodes as the standard alphabet, padded unless asked not to, at any length', () => {
    for (const n of [0, 1, 2, 3, 4, 64, 0x2000 - 1, 0x2000, 0x2000 * 3 + 5]) {
      const b = bytes(n);
      const expected = Buffer.from(b).toString('base64');
      expect(toBase64(b)).toBe(expected);
      expect(toBase64(b, { pad: false })).toBe(expected.replace(/=+$/, ''));
      expect(fromBase64(toBase64(b, { pad: false }))).toEqual(b);
    }
  });

  it('encodes only the view, not the buffer beneath it', () => {
    const b = bytes(100);
    expect(toBase64(b.subarray(10, 20))).toBe(Buffer.from(b.subarray(10, 20)).toString('base64'));
  });

  it('refuses what is not base64', () => {
    for (const bad of ['a b', 'A', 'AB=C', 'ABCD==', '-_']) expect(fromBase64(bad), bad).toBeUndefined();
  });
});
