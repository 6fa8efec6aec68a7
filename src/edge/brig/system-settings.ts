import { z } from '@hono/zod-openapi';
import { endpoint } from '../api/endpoint.js';

export const systemSettingsPublic = z
  .object({
    setRestrictUserCreation: z.boolean().openapi({ description: 'Do not allow certain user creation flows' }),
  })
  .openapi('SystemSettingsPublic');

/** `GET /system/settings/unauthorized`: no authentication, only the user-creation restriction flag. */
export const getSystemSettingsUnauthorized = endpoint(
  {
    name: 'get-system-settings-unauthorized',
    auth: 'none',
    from: 3,
    summary: 'Returns a curated set of system configuration settings.',
    method: 'get',
    path: '/system/settings/unauthorized',
    responses: {
      200: { description: 'Public system settings', content: { 'application/json': { schema: systemSettingsPublic } } },
    },
  },
  (c) => c.json({ setRestrictUserCreation: c.get('config').brig.optSettings.setRestrictUserCreation }, 200),
);
