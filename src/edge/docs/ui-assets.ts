// Swagger UI's script and stylesheet, served by the backend itself so the documentation pages
// work offline. Both are imported as text: tools/lib/bundle.ts and wrangler.toml's [[rules]] say so.
import bundle from 'swagger-ui-dist/swagger-ui-bundle.js';
import stylesheet from 'swagger-ui-dist/swagger-ui.css';

/** Where the pages load them from (@hono/swagger-ui's `baseUrl`, to which it adds `/swagger-ui-dist`). */
export const UI_ASSETS_BASE = '/api';

const FILES: Record<string, { body: string; type: string }> = {
  [`${UI_ASSETS_BASE}/swagger-ui-dist/swagger-ui-bundle.js`]: { body: bundle, type: 'text/javascript; charset=utf-8' },
  [`${UI_ASSETS_BASE}/swagger-ui-dist/swagger-ui.css`]: { body: stylesheet, type: 'text/css; charset=utf-8' },
};

/** The asset at this unversioned path, or undefined. */
export function uiAsset(path: string): Response | undefined {
  const file = FILES[path];
  if (file === undefined) return undefined;
  return new Response(file.body, { headers: { 'content-type': file.type, 'cache-control': 'public, max-age=86400' } });
}
