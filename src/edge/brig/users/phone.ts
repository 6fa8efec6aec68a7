import { z } from '@hono/zod-openapi';
import { endpoint } from '../../api/endpoint.js';
import { ApiError } from '../../api/errors/api-error.js';
import { brigErrors } from '../../api/errors/brig.js';
import { jsonBody } from '../../api/schemas/common.js';

// The phone routes of v0-v5. Accounts here have no phone number, as wire-server's have none any
// more: a new number is refused, removing one has nothing to remove, a login code by SMS is refused.

export const changePhone = endpoint(
  {
    name: 'change-phone',
    method: 'put',
    path: '/self/phone',
    until: 6,
    request: jsonBody(z.object({ phone: z.string() }).openapi('PhoneUpdate')),
    errors: [brigErrors.invalidPhone],
    responses: { 202: { description: 'Never: phone numbers are not supported' } },
  },
  () => {
    throw new ApiError(brigErrors.invalidPhone);
  },
);

export const removePhone = endpoint(
  {
    name: 'remove-phone',
    method: 'delete',
    path: '/self/phone',
    until: 6,
    responses: { 200: { description: 'No phone number is left' } },
  },
  (c) => c.body(null, 200),
);

export const sendLoginCode = endpoint(
  {
    name: 'send-login-code',
    method: 'post',
    path: '/login/send',
    until: 6,
    auth: 'none',
    request: jsonBody(
      z
        .object({ phone: z.string(), voice_call: z.boolean().optional(), force: z.boolean().optional() })
        .openapi('SendLoginCode'),
    ),
    errors: [brigErrors.invalidPhone],
    responses: { 200: { description: 'Never: logging in by phone is not supported' } },
  },
  () => {
    throw new ApiError(brigErrors.invalidPhone);
  },
);
