import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { json, jsonBody } from '../../api/schemas/common.js';

/**
 * `POST /onboarding/v3` (until v8): contact matching, long turned off in wire-server too. Whatever
 * address book is posted, nobody is matched and nobody connected.
 */
export const onboarding = endpoint(
  {
    name: 'onboarding',
    method: 'post',
    path: '/onboarding/v3',
    until: 8,
    request: jsonBody(z.unknown().openapi('Body')),
    responses: {
      200: {
        description: 'No matches',
        ...json(
          z
            .object({ results: z.array(z.null()), 'auto-connects': z.array(z.null()) })
            .openapi('DeprecatedMatchingResult'),
        ),
      },
    },
  },
  (c) => c.json({ results: [], 'auto-connects': [] }, 200),
);
