import { z } from '@hono/zod-openapi';

/** A user's legal hold status, as profiles, team members and legal hold routes show it. */
export const legalholdStatus = z.enum(['enabled', 'pending', 'disabled', 'no_consent']).openapi('UserLegalHoldStatus');
export type LegalholdStatus = z.infer<typeof legalholdStatus>;
