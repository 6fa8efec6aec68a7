import type { Decoder } from 'ts-mls/codec/tlsDecoder.js';
import { protocolError } from './mls-error.js';

/**
 * Runs a ts-mls decoder at `offset`: the value and the number of bytes it took, or `undefined`
 * when the bytes do not decode. ts-mls decoders both return `undefined` and throw (CodecError,
 * even TypeError) on bad input; this turns every failure into `undefined`.
 */
export function decodeAt<T>(decoder: Decoder<T>, bytes: Uint8Array, offset: number): [T, number] | undefined {
  try {
    return decoder(bytes, offset);
  } catch {
    return undefined;
  }
}

/** Decodes `bytes` as exactly one `what` (ts-mls ignores trailing bytes; this refuses them). */
export function decodeExactly<T>(decoder: Decoder<T>, bytes: Uint8Array, what: string): T {
  const decoded = decodeAt(decoder, bytes, 0);
  if (decoded === undefined) throw protocolError(`Malformed ${what}`);
  if (decoded[1] !== bytes.length) throw protocolError(`Trailing bytes after ${what}`);
  return decoded[0];
}
