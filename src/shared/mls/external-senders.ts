import { mapDecoders } from 'ts-mls/codec/tlsDecoder.js';
import { decodeVarLenData, decodeVarLenType } from 'ts-mls/codec/variableLength.js';
import { type Credential, decodeCredential } from 'ts-mls/credential.js';
import { type Extension, extensionTypeToNumber } from 'ts-mls/extension.js';
import { decodeExactly } from './decoding.js';

/** RFC 9420 §12.1.8.1: `struct { SignaturePublicKey signature_key; Credential credential; } ExternalSender`. */
interface ExternalSender {
  /** The key as the client wrote it (ECDSA keys may be compressed or not: compare points, not bytes). */
  signatureKey: Uint8Array;
  credential: Credential;
}

const EXTERNAL_SENDERS_EXTENSION = 5;

/**
 * `ExternalSender external_senders<V>`. ts-mls 1.6.4 writes and reads a single struct instead of
 * the RFC's vector, so the extension is parsed here from its opaque data.
 */
const decodeExternalSenders = decodeVarLenType(
  mapDecoders(
    [decodeVarLenData, decodeCredential],
    (signatureKey, credential): ExternalSender => ({
      signatureKey,
      credential,
    }),
  ),
);

/**
 * The external senders of a group, by index (the backend signs its Remove proposals as index 0),
 * from its GroupContext extensions: `undefined` when the group has no `external_senders`
 * extension, a `mls-protocol-error` when its data does not parse.
 */
export function externalSenders(extensions: Extension[]): ExternalSender[] | undefined {
  const extension = extensions.find((e) => extensionTypeToNumber(e.extensionType) === EXTERNAL_SENDERS_EXTENSION);
  if (extension === undefined) return undefined;
  return decodeExactly(decodeExternalSenders, extension.extensionData, 'external_senders extension');
}
