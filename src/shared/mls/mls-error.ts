import { isSupportedSuite, type SuiteImpl, suiteImpl } from './suites.js';

/** The error labels the delivery service's message parsing answers with, as wire-server names them. */
type MlsErrorLabel = 'mls-protocol-error' | 'mls-unsupported-message';

/**
 * An MLS message the delivery service refuses: `mls-protocol-error` (400) for bytes that do not
 * decode or a bundle of the wrong shape, `mls-unsupported-message` (422) for a message kind the
 * endpoint does not take.
 */
export class MlsError extends Error {
  constructor(
    readonly label: MlsErrorLabel,
    message: string,
  ) {
    super(message);
    this.name = 'MlsError';
  }
}

/** The 400 `mls-protocol-error` for `message`. */
export const protocolError = (message: string) => new MlsError('mls-protocol-error', message);

/** The implementation of a suite the backend supports; a `mls-protocol-error` for any other suite. */
export async function supportedSuiteImpl(suite: number): Promise<SuiteImpl> {
  if (!isSupportedSuite(suite)) throw protocolError(`Unsupported ciphersuite 0x${suite.toString(16).padStart(4, '0')}`);
  return suiteImpl(suite);
}
