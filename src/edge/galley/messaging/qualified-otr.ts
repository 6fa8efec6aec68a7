import type { Context } from 'hono';
import {
  decodeQualifiedOtr,
  OtrDecodeError,
  type MismatchStrategy,
  type OtrMessage,
} from '../../../shared/codecs/otr.js';
import type { AppEnv } from '../../api/app-env.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';
import { checkStorable } from './storable-size.js';

/**
 * A `QualifiedNewOtrMessage` with a strategy, small enough to store: anything else is 400
 * `bad-request` (413 when too large). Sent by a local client or, through send-message, a remote one.
 */
export function parseQualifiedOtr(raw: Uint8Array): OtrMessage & { strategy: MismatchStrategy } {
  let message: OtrMessage;
  try {
    message = decodeQualifiedOtr(raw);
  } catch (err) {
    if (err instanceof OtrDecodeError)
      throw new ApiError(commonErrors.badRequest, `Malformed QualifiedNewOtrMessage: ${err.message}`);
    throw err;
  }
  if (message.strategy === undefined)
    throw new ApiError(commonErrors.badRequest, 'ClientMismatchStrategy not specified!');
  checkStorable(message);
  return { ...message, strategy: message.strategy };
}

/** The request's `QualifiedNewOtrMessage` (see parseQualifiedOtr), with its bytes as sent. */
export async function readQualifiedOtr(
  c: Context<AppEnv>,
): Promise<OtrMessage & { strategy: MismatchStrategy; raw: Uint8Array }> {
  const raw = new Uint8Array(await c.req.arrayBuffer());
  return { ...parseQualifiedOtr(raw), raw };
}
