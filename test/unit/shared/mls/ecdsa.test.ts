import { p256, p384, p521 } from '@noble/curves/nist.js';
import { describe, expect, it, vi } from 'vitest';
import { derToP1363 } from '../../../../src/shared/mls/ecdsa-der.js';
import { suiteImpl } from '../../../../src/shared/mls/suites.js';

const opts = { prehash: true, format: 'der', lowS: false } as const;

/** Each ECDSA suite Wire uses, with the noble curve that makes its keys and signatures here. */
const SUITES = [
  { suite: 0x0002, curve: p256, size: 32 },
  { suite: 0x0007, curve: p384, size: 48 },
  { suite: 0x0005, curve: p521, size: 66 },
] as const;

const message = new TextEncoder().encode('FramedContentTBS of some commit');

describe.each(SUITES)('ECDSA of suite $suite, verified by WebCrypto', ({ suite, curve, size }) => {
  const signKey = curve.utils.randomSecretKey();
  const publicKey = curve.getPublicKey(signKey, false); // uncompressed, as core-crypto registers it
  const der = curve.sign(message, signKey, opts);

  it('takes a DER signature of the message, also with a high S, and refuses any other', async () => {
    const { signature } = await suiteImpl(suite);
    const native = vi.spyOn(crypto.subtle, 'verify');
    expect(await signature.verify(publicKey, message, der)).toBe(true);
    expect(native.mock.calls.map((c) => c[0])).toEqual([{ name: 'ECDSA', hash: expect.stringMatching(/^SHA-/) }]);
    native.mockRestore();
    const { r, s } = curve.Signature.fromBytes(der, 'der');
    const highS = new curve.Signature(r, curve.Point.Fn.ORDER - s).toBytes('der');
    expect(await signature.verify(publicKey, message, highS)).toBe(true);

    expect(await signature.verify(publicKey, new TextEncoder().encode('another message'), der)).toBe(false);
    const otherKey = curve.getPublicKey(curve.utils.randomSecretKey(), false);
    expect(await signature.verify(otherKey, message, der)).toBe(false);
    expect(await signature.verify(publicKey, message, Uint8Array.of(...der, 0))).toBe(false);
    expect(await signature.verify(publicKey, message, der.subarray(0, der.length - 1))).toBe(false);
    expect(await signature.verify(publicKey.subarray(1), message, der)).toBe(false); // no point
  });

  it('verifies for a compressed key as for an uncompressed one', async () => {
    const { signature } = await suiteImpl(suite);
    expect(await signature.verify(curve.getPublicKey(signKey, true), message, der)).toBe(true);
  });

  it('turns DER into the fixed-size halves WebCrypto takes, as noble reads it', () => {
    for (let i = 0; i < 20; i++) {
      const sig = curve.sign(crypto.getRandomValues(new Uint8Array(32)), signKey, opts);
      expect(derToP1363(sig, size)).toEqual(curve.Signature.fromBytes(sig, 'der').toBytes('compact'));
    }
  });
});

describe('DER signatures that are not strict DER of two positive integers', () => {
  // SEQUENCE { INTEGER 1, INTEGER 2 } and its breakages.
  const good = [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02];
  it.each([
    ['a leading zero DER does not need', [0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x02]],
    ['a negative integer', [0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x02]],
    ['a sequence length past the end', [0x30, 0x07, ...good.slice(2)]],
    ['an empty integer', [0x30, 0x05, 0x02, 0x00, 0x02, 0x01, 0x02]],
    ['another tag', [0x31, ...good.slice(1)]],
    ['a long-form length for a short one', [0x30, 0x81, 0x06, ...good.slice(2)]],
    ['an integer wider than the curve', [0x30, 0x07, 0x02, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]],
  ])('refuses %s', (_, bytes) => {
    expect(derToP1363(Uint8Array.from(bytes), 1)).toBeUndefined();
  });

  it('reads the good one, and a needed leading zero', () => {
    expect(derToP1363(Uint8Array.from(good), 1)).toEqual(Uint8Array.of(1, 2));
    const highBit = [0x30, 0x07, 0x02, 0x02, 0x00, 0x81, 0x02, 0x01, 0x02];
    expect(derToP1363(Uint8Array.from(highBit), 1)).toEqual(Uint8Array.of(0x81, 2));
  });
});
