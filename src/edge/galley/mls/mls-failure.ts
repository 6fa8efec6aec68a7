import { MlsError } from '../../../shared/mls/mls-error.js';
import type { MlsRefusal } from '../../../shared/mls/delivery.js';
import { ApiError } from '../../api/errors/api-error.js';
import { galleyErrors } from '../../api/errors/galley.js';
import { mlsErrors } from '../../api/errors/mls.js';

/** The API error of a refusal the conversation's object answered with. */
export function refusalError(refusal: MlsRefusal, message?: string): ApiError {
  const spec =
    refusal === 'noConversation'
      ? galleyErrors.noConversation
      : refusal === 'actionDenied'
        ? galleyErrors.actionDenied
        : mlsErrors[refusal];
  return new ApiError(spec, message);
}

/** Runs a parse of client-sent MLS data; its MlsError becomes the API error of the same label. */
export async function parsed<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof MlsError)) throw err;
    const spec = err.label === 'mls-unsupported-message' ? mlsErrors.mlsUnsupportedMessage : mlsErrors.mlsProtocolError;
    throw new ApiError(spec, err.message);
  }
}
