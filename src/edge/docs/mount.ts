import type { OpenAPIHono } from '@hono/zod-openapi';
import { swaggerUI } from '@hono/swagger-ui';
import type { ApiVersion } from '../../shared/api-version.js';
import type { AppEnv } from '../api/app-env.js';
import { ZAUTH_SCHEME } from '../api/endpoint.js';
import { eventNotificationSchemas } from '../events/registry.js';
import { UI_ASSETS_BASE } from './ui-assets.js';

const TITLE = 'Team messaging backend API';

/** Adds the generated documentation of one version (and of the internal API) to its app. */
export function mountDocs(app: OpenAPIHono<AppEnv>, v: ApiVersion, internalApp: OpenAPIHono<AppEnv>): void {
  let publicDoc: unknown;
  app.openAPIRegistry.registerComponent('securitySchemes', ZAUTH_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token from POST /login or POST /access (also accepted as ?access_token=)',
  });
  let internalDoc: unknown;
  app.get('/api/swagger.json', (c) =>
    c.json(
      (publicDoc ??= app.getOpenAPIDocument({
        openapi: '3.0.0',
        info: { title: TITLE, version: `v${v}` },
        servers: [{ url: `/v${v}` }],
      })),
    ),
  );
  app.get(
    '/api/swagger-ui',
    swaggerUI({ url: `/v${v}/api/swagger.json`, title: `${TITLE} v${v}`, baseUrl: UI_ASSETS_BASE }),
  );
  app.get('/api-internal/swagger.json', (c) =>
    c.json(
      (internalDoc ??= internalApp.getOpenAPIDocument({
        openapi: '3.0.0',
        info: { title: `${TITLE} (internal, unversioned)`, version: 'internal' },
      })),
    ),
  );
  app.get(
    '/api-internal/swagger-ui',
    swaggerUI({ url: `/v${v}/api-internal/swagger.json`, title: `${TITLE} internal`, baseUrl: UI_ASSETS_BASE }),
  );
  app.get('/api/event-notification-schemas', (c) => c.json(eventNotificationSchemas()));
}
