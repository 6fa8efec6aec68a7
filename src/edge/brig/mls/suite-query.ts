import { z } from '@hono/zod-openapi';
import { isSupportedSuite } from '../../../shared/mls/suites.js';
import { ApiError } from '../../api/errors/api-error.js';
import { mlsErrors } from '../../api/errors/mls.js';

/** The suite of clients that name none: 0x0001 (X25519, AES-128-GCM, Ed25519). */
const LEGACY_SUITE = 0x0001;

/** A cipher suite in a query: hexadecimal, `0x` optional. */
export const suiteText = z.string().regex(/^(0x)?[0-9a-fA-F]{1,4}$/);

/** A suite the backend supports, from its hexadecimal text; 400 `mls-protocol-error` otherwise. */
export function parseSuite(text: string | undefined): number {
  if (text === undefined) return LEGACY_SUITE;
  const suite = Number.parseInt(text.replace(/^0x/, ''), 16);
  if (!isSupportedSuite(suite)) throw new ApiError(mlsErrors.mlsProtocolError, 'Unknown ciphersuite');
  return suite;
}
