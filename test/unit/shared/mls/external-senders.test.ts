import { describe, expect, it } from 'vitest';
import { externalSenders } from '../../../../src/shared/mls/external-senders.js';
import { MlsError } from '../../../../src/shared/mls/mls-error.js';
import { concatBytes } from '../../../helpers/bytes.js';

/** An RFC 9420 opaque<V> (a variable-length integer prefix; here under 16384 bytes). */
const opaque = (bytes: Uint8Array) =>
  concatBytes(
    new Uint8Array(bytes.length < 64 ? [bytes.length] : [0x40 | (bytes.length >> 8), bytes.length & 0xff]),
    bytes,
  );
const basicCredential = (identity: string) =>
  concatBytes(new Uint8Array([0, 1]), opaque(new TextEncoder().encode(identity)));
const externalSendersExtension = (...senders: Uint8Array[]) => ({
  extensionType: 'external_senders' as const,
  extensionData: opaque(concatBytes(...senders)),
});

describe('externalSenders', () => {
  const key1 = new Uint8Array(32).fill(1);
  const key2 = new Uint8Array(33).fill(2);

  it('reads every sender of the RFC vector, in order', () => {
    const extension = externalSendersExtension(
      concatBytes(opaque(key1), basicCredential('wire-server')),
      concatBytes(opaque(key2), basicCredential('other')),
    );
    const senders = externalSenders([
      { extensionType: 'required_capabilities', extensionData: new Uint8Array() },
      extension,
    ]);
    expect(senders).toEqual([
      {
        signatureKey: key1,
        credential: { credentialType: 'basic', identity: new TextEncoder().encode('wire-server') },
      },
      { signatureKey: key2, credential: { credentialType: 'basic', identity: new TextEncoder().encode('other') } },
    ]);
  });

  it('finds the extension also when ts-mls names it by number', () => {
    const { extensionData } = externalSendersExtension(concatBytes(opaque(key1), basicCredential('wire-server')));
    expect(externalSenders([{ extensionType: 5, extensionData }])).toHaveLength(1);
  });

  it('is undefined for a group without the extension', () => {
    expect(externalSenders([])).toBeUndefined();
  });

  it("refuses data that is not the RFC vector, such as ts-mls 1.6.4's single struct", () => {
    const singleStruct = concatBytes(opaque(key1), basicCredential('wire-server'));
    const malformed = new MlsError('mls-protocol-error', 'Malformed external_senders extension');
    expect(() => externalSenders([{ extensionType: 'external_senders', extensionData: singleStruct }])).toThrow(
      malformed,
    );
    const trailing = concatBytes(externalSendersExtension().extensionData, new Uint8Array([0]));
    expect(() => externalSenders([{ extensionType: 5, extensionData: trailing }])).toThrow(
      new MlsError('mls-protocol-error', 'Trailing bytes after external_senders extension'),
    );
  });
});
