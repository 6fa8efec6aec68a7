import type { OtrMessage } from '../../../shared/codecs/otr.js';
import { ApiError } from '../../api/errors/api-error.js';
import { commonErrors } from '../../api/errors/common.js';

/**
 * What one recipient's notification may carry: its ciphertext and the message's `data` together.
 * A notification is stored as text in one SQLite row (2 MB at most), base64 adds a third, and the
 * event around it needs room; past this a send would fail at storage instead of being refused.
 */
const MAX_NOTIFICATION_BYTES = 1024 * 1024;

/** Refuses, with 413, a message some recipient's notification could not be stored for. */
export function checkStorable(m: OtrMessage): void {
  const blob = m.blob?.length ?? 0;
  for (const r of m.recipients)
    if (r.text.length + blob > MAX_NOTIFICATION_BYTES)
      throw new ApiError(
        commonErrors.payloadTooLarge,
        "A recipient's ciphertext and the message's data may hold at most 1 MiB together",
      );
}
