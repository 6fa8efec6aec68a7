import { z } from '@hono/zod-openapi';
import { endpoint } from '../api/endpoint.js';

const systemSettingsPublic = z
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

const systemSettings = z
  .object({
    setRestrictUserCreation: z.boolean().openapi({ description: 'Do not allow certain user creation flows' }),
    setEnableMls: z.boolean().openapi({ description: 'Whether MLS is enabled or not' }),
  })
  .openapi('SystemSettings');

/** `GET /system/settings`: for authenticated users, adds the MLS switch (`setEnableMLS`). */
export const getSystemSettings = endpoint(
  {
    name: 'get-system-settings',
    from: 4,
    summary: 'Returns a curated set of system configuration settings for authorized users.',
    method: 'get',
    path: '/system/settings',
    responses: {
      200: { description: 'System settings', content: { 'application/json': { schema: systemSettings } } },
    },
  },
  (c) => {
    const o = c.get('config').brig.optSettings;
    return c.json({ setRestrictUserCreation: o.setRestrictUserCreation, setEnableMls: o.setEnableMLS }, 200);
  },
);
